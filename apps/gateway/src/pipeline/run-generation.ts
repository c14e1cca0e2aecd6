import { findModel, type Warning } from "@interlingua/core-types";
import {
  type GatewayError,
  invalidRequest,
  modelNotFound,
  permissionDenied,
  toGatewayError,
} from "@interlingua/errors";
import { errorResponse } from "../http/error-response.ts";
import type { GatewayServices } from "../services.ts";
import { type AttemptRecord, attemptUpstreams } from "./attempt-upstreams.ts";
import type { GenerationRequest } from "./generation-request.ts";
import { renderJsonReply } from "./respond-json.ts";
import { streamReply } from "./respond-stream.ts";

const JSON_HEADERS = { "content-type": "application/json" };

/** The back half of a generation: route, call upstream (with fallback), reply in the client's format. */
export async function runGeneration(
  services: GatewayServices,
  request: GenerationRequest,
): Promise<Response> {
  const started = performance.now();
  const { log, endpoint } = request;
  const fail = (error: GatewayError, attempts: AttemptRecord[] = []) => {
    log.info(
      {
        model: request.model,
        stream: request.stream,
        status: error.status,
        error: error.message,
        // The upstream's body stays out of the log: it may quote the channel's key.
        ...(error.upstream === undefined ? {} : { upstreamStatus: error.upstream.status }),
        ...(error.status >= 500 && error.cause !== undefined ? { cause: String(error.cause) } : {}),
        attempts,
        ms: elapsed(),
      },
      "request failed",
    );
    return errorResponse(endpoint.errors, error, request.requestId);
  };
  const elapsed = () => Math.round(performance.now() - started);

  const route = services.router.resolve(request.model);
  if (route === undefined) return fail(modelNotFound(request.model));
  const allowed = request.token.models;
  if (allowed !== undefined && !allowed.has(request.model) && !allowed.has(route.gatewayModel)) {
    return fail(permissionDenied(`this API key may not use model ${request.model}`));
  }
  const entry = findModel(route.gatewayModel);
  if (entry !== undefined && !entry.endpoints.includes(endpoint.format)) {
    return fail(
      invalidRequest(
        `model ${request.model} is a ${entry.kind} model and is not served on this endpoint`,
        "model",
      ),
    );
  }

  const attempts: AttemptRecord[] = [];
  const result = await attemptUpstreams(
    services.agent,
    services.router,
    request,
    services.router.plan(route),
    attempts,
  );
  if (!result.ok) return fail(result.error, attempts);
  const committed = result.committed;
  const warnings: Warning[] = committed.warnings;
  const summary = {
    model: request.model,
    channel: committed.candidate.channel.name,
    upstreamModel: committed.candidate.upstreamModel,
    sameFormat: committed.prepared.sameFormat,
    stream: request.stream,
    attempts,
  };

  if (committed.kind === "json") {
    let reply: ReturnType<typeof renderJsonReply>;
    try {
      reply = renderJsonReply(request, committed, warnings);
    } catch (error) {
      return fail(toGatewayError(error), attempts);
    }
    // Usage is read after the reply is on its way; the client does not wait for the log.
    setImmediate(() => {
      log.info(
        { ...summary, status: 200, usage: reply.usage(), warnings, ms: elapsed() },
        "request completed",
      );
    });
    return new Response(reply.body, { status: 200, headers: JSON_HEADERS });
  }

  return streamReply(services, request, committed, (outcome) => {
    log.info({ ...summary, status: 200, ...outcome, warnings, ms: elapsed() }, "stream completed");
  });
}
