import {
  analyzeCache,
  type CacheAnalysis,
  ignoredNativeBoundaries,
} from "@interlingua/cache-control";
import {
  type Request as CanonicalRequest,
  findTooDeep,
  MAX_JSON_DEPTH,
  type Warning,
} from "@interlingua/core-types";
import { type GatewayError, invalidRequest, notFound, toGatewayError } from "@interlingua/errors";
import type { Context } from "hono";
import { authenticate } from "../auth/authenticate.ts";
import type { AppEnv } from "../contract/app-env.ts";
import type { EndpointSpec } from "../contract/endpoints.ts";
import { ENVELOPE_HEADER, shouldWrap } from "../contract/envelope.ts";
import { errorResponse } from "../contract/error-response.ts";
import { type BodyReadResult, readBodyCapped } from "../contract/read-body.ts";
import { parseJsonObject } from "../contract/read-json-object.ts";
import { isStrict } from "../contract/warnings-header.ts";
import { logRefused } from "../log/log-refused.ts";
import { requestLog } from "../log/request-log.ts";
import type { GenerationRequest } from "../pipeline/generation-request.ts";
import { TextReply } from "../pipeline/respond-json.ts";
import { runGeneration } from "../pipeline/run-generation.ts";
import { resolveStoredState, type StorePlan } from "../responses/stored-state.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { writesDirectly } from "../stream/direct-relay.ts";
import { CLIENT_PROTOCOLS } from "../upstream/protocols.ts";
import { submitBackground } from "./background-response.ts";
import { parseNativeTarget } from "./native-target.ts";

const NO_CACHE: CacheAnalysis = { mode: "none", warnings: [] };

/** What the front half reads of an HTTP request, whichever server it came through. */
export interface GenerationCall {
  readonly requestId: string;
  readonly url: URL;
  /** The `{model}:{method}` segment of a native route, as routed (undefined elsewhere). */
  readonly target: string | undefined;
  /** Only `get` is read: the Node route passes its own reader of the parsed request headers. */
  readonly headers: Headers;
  /** The body, capped (see `readBodyCapped`). */
  readBody(limit: number): Promise<BodyReadResult>;
  /** Aborts when the client disconnects. */
  readonly signal: AbortSignal;
  /** The server writes a RelayResponse to the Node response itself (see `writesDirectly`). */
  readonly writesDirectly: boolean;
}

/**
 * The front half of every generation endpoint: target, credentials, body, client-format parse.
 * Each refusal is rendered in the endpoint's own error envelope. Shared by the Hono route
 * (`generationHandler`) and the Node route (`generation-listener.ts`).
 */
export function answerGeneration(services: GatewayServices, endpoint: EndpointSpec) {
  const handle = handleGeneration(services, endpoint);
  // A bug past this point still answers in the endpoint's own error envelope.
  return async (call: GenerationCall): Promise<Response | TextReply> => {
    try {
      return await handle(call);
    } catch (error) {
      services.log.error(
        { requestId: call.requestId, endpoint: endpoint.name, err: error },
        "unhandled error",
      );
      return errorResponse(endpoint.errors, toGatewayError(error), call.requestId);
    }
  };
}

/** `answerGeneration` as a Hono route handler. */
export function generationHandler(services: GatewayServices, endpoint: EndpointSpec) {
  const answer = answerGeneration(services, endpoint);
  return async (c: Context<AppEnv>): Promise<Response> => {
    const reply = await answer({
      requestId: c.get("requestId"),
      url: new URL(c.req.url),
      target: endpoint.format === "native" ? (c.req.param("target") ?? "") : undefined,
      headers: c.req.raw.headers,
      readBody: (limit) => readBodyCapped(c.req.raw, limit),
      signal: c.req.raw.signal,
      writesDirectly: writesDirectly(c.env),
    });
    return reply instanceof TextReply ? reply.toResponse() : reply;
  };
}

function handleGeneration(services: GatewayServices, endpoint: EndpointSpec) {
  return async (call: GenerationCall): Promise<Response | TextReply> => {
    const { requestId, url, headers } = call;
    const log = requestLog(services.log, { requestId, endpoint: endpoint.name });
    const refuse = (error: GatewayError) => {
      logRefused(log, url, error);
      return errorResponse(endpoint.errors, error, requestId);
    };

    const target = endpoint.format === "native" ? parseNativeTarget(call.target ?? "") : undefined;
    if (endpoint.format === "native" && target === undefined) {
      return refuse(
        notFound("unknown method: use {model}:generateContent or {model}:streamGenerateContent"),
      );
    }

    const auth = await authenticate(services, endpoint.credentials, headers, url);
    if (!auth.ok) return refuse(auth.error);
    const token = auth.token;

    const read = parseJsonObject(await call.readBody(services.config.limits.max_body_bytes));
    if (!read.ok) return refuse(read.error);
    let wire = read.body;
    // Bounded before anything walks the body (codecs, prompt sizing, converters recurse).
    const tooDeep = findTooDeep(wire);
    if (tooDeep !== undefined) {
      const field = tooDeep.length > 120 ? `${tooDeep.slice(0, 120)}...` : tooDeep;
      return refuse(
        invalidRequest(`${field}: nested more than ${MAX_JSON_DEPTH} levels deep`, field),
      );
    }

    // Responses state: previous_response_id and item_reference become the items they name.
    let stored: StorePlan | undefined;
    let notes: Warning[] | undefined;
    if (endpoint.format === "responses") {
      const state = await resolveStoredState(services, token.userId, wire);
      if (!state.ok) return refuse(state.error);
      wire = state.wire;
      stored = state.plan;
      notes = state.warnings;
    }

    let canonical: CanonicalRequest;
    try {
      // The native format names the model and streaming in the path, not the body; the path
      // model wins over a body `model`, which the native codec otherwise reads.
      canonical =
        target === undefined
          ? CLIENT_PROTOCOLS[endpoint.format].codec.request.parse(wire)
          : {
              ...CLIENT_PROTOCOLS.native.codec.request.parse({ ...wire, model: target.model }),
              stream: target.stream,
            };
    } catch (error) {
      return refuse(toGatewayError(error));
    }

    // docs/api-reference.md's cache_control rules apply to the chat and native formats. On messages the field
    // is Anthropic's own: it rides through to an Anthropic upstream unchanged and is stripped
    // toward any other (prepare-upstream-request.ts); responses has no such field.
    let cache: CacheAnalysis = NO_CACHE;
    if (endpoint.format === "chat" || endpoint.format === "native") {
      try {
        cache = analyzeCache(canonical, endpoint.format);
      } catch (error) {
        return refuse(toGatewayError(error));
      }
      if (endpoint.format === "native") {
        const ignored = ignoredNativeBoundaries(wire);
        if (ignored.length > 0) cache = { ...cache, warnings: [...cache.warnings, ...ignored] };
      }
    }

    const anthropicVersion = headers.get("anthropic-version") ?? headers.get("vendor-version");
    const anthropicBeta = headers.get("anthropic-beta");
    const request: GenerationRequest = {
      endpoint,
      requestId,
      token,
      log: log.with({ token: token.name }),
      wire,
      canonical,
      cache,
      model: canonical.model,
      stream: canonical.stream,
      jsonArrayStream: target?.stream === true && url.searchParams.get("alt") !== "sse",
      wrap: shouldWrap(endpoint.wrapped, services.config.envelope, headers.get(ENVELOPE_HEADER)),
      upstream: {
        ...(anthropicVersion === null ? {} : { anthropicVersion }),
        ...(anthropicBeta === null || endpoint.format !== "messages" ? {} : { anthropicBeta }),
      },
      writesDirectly: call.writesDirectly,
      signal: call.signal,
      strict: isStrict(headers),
      ...(stored === undefined ? {} : { stored }),
      ...(notes === undefined || notes.length === 0 ? {} : { notes }),
    };
    if (stored?.background === true) {
      try {
        return await submitBackground(services, request, stored);
      } catch (error) {
        return refuse(toGatewayError(error));
      }
    }
    return runGeneration(services, request);
  };
}
