import type { CacheAnalysis } from "@interlingua/cache-control";
import type { Warning } from "@interlingua/core-types";
import { authenticate } from "../auth/authenticate.ts";
import type { EndpointSpec } from "../contract/endpoints.ts";
import { ENVELOPE_HEADER, shouldWrap } from "../contract/envelope.ts";
import type { BodyReadResult } from "../contract/read-body.ts";
import { boundedDepth, parseJsonObject } from "../contract/read-json-object.ts";
import { isStrict } from "../contract/warnings-header.ts";
import { requestLog } from "../log/request-log.ts";
import type { GenerationRequest } from "../pipeline/generation-request.ts";
import type { TextReply } from "../pipeline/respond-json.ts";
import { runGeneration } from "../pipeline/run-generation.ts";
import type { StorePlan } from "../responses/stored-state.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { submitBackground } from "./background-response.ts";
import { CLIENT_READING } from "./client-reading.ts";
import type { HeaderReader } from "./incoming-request.ts";
import { answerThrown } from "./route-envelope.ts";

const NO_CACHE: CacheAnalysis = { mode: "none", warnings: [] };

/** What the front half reads of an HTTP request. */
export interface GenerationCall {
  readonly requestId: string;
  readonly url: URL;
  /** A native route's `{model}:{method}` segment, still escaped (undefined elsewhere). */
  readonly target: string | undefined;
  readonly headers: HeaderReader;
  /** The body, capped (see `readBodyCapped`). */
  readBody(limit: number): Promise<BodyReadResult>;
  /** Aborts when the client disconnects. */
  readonly signal: AbortSignal;
}

/**
 * The front half of every generation endpoint: target, credentials, body, client-format parse.
 * Every step refuses by throwing a `GatewayError`, answered by the gateway's one `answerThrown` in
 * the endpoint's own error envelope (a bug too, as a 500). Served by the front door (`front-door.ts`).
 */
export function answerGeneration(services: GatewayServices, endpoint: EndpointSpec) {
  const handle = handleGeneration(services, endpoint);
  const { errors, name } = endpoint;
  return async (call: GenerationCall): Promise<Response | TextReply> => {
    try {
      return await handle(call);
    } catch (thrown) {
      const at = { requestId: call.requestId, url: call.url, errors, endpoint: name };
      return answerThrown(services.log, thrown, at);
    }
  };
}

function handleGeneration(services: GatewayServices, endpoint: EndpointSpec) {
  const reading = CLIENT_READING[endpoint.format];
  return async (call: GenerationCall): Promise<Response | TextReply> => {
    const { requestId, url, headers } = call;
    const log = requestLog(services.log, { requestId, endpoint: endpoint.name });
    const target = reading.target?.(call.target ?? "");

    const token = await authenticate(services, endpoint.credentials, headers, url);
    let wire = boundedDepth(
      parseJsonObject(await call.readBody(services.config.limits.max_body_bytes)),
    );

    let stored: StorePlan | undefined;
    let notes: Warning[] | undefined;
    if (reading.state !== undefined) {
      const state = await reading.state(services, token.userId, wire);
      wire = state.wire;
      stored = state.plan;
      notes = state.warnings;
    }
    const canonical = reading.parse(wire, target);
    const cache = reading.cache?.(canonical, wire) ?? NO_CACHE;

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
      upstream: reading.upstream(headers),
      // The front door writes a RelayResponse to the Node response itself.
      writesDirectly: true,
      signal: call.signal,
      strict: isStrict(headers),
      ...(stored === undefined ? {} : { stored }),
      ...(notes === undefined || notes.length === 0 ? {} : { notes }),
    };
    if (stored?.background === true) return submitBackground(services, request, stored);
    return runGeneration(services, request);
  };
}
