import {
  analyzeCache,
  type CacheAnalysis,
  ignoredNativeBoundaries,
} from "@interlingua/cache-control";
import type { Request as CanonicalRequest, Warning, WireFormat } from "@interlingua/core-types";
import { notFound } from "@interlingua/errors";
import { authenticate } from "../auth/authenticate.ts";
import {
  boundedDepth,
  ENVELOPE_HEADER,
  isStrict,
  parseJsonObject,
  shouldWrap,
} from "../contract/client-contract.ts";
import type { EndpointSpec } from "../contract/endpoints.ts";
import type { BodyReadResult } from "../contract/read-body.ts";
import { requestLog } from "../log/request-log.ts";
import type { GenerationRequest } from "../pipeline/generation-request.ts";
import type { TextReply } from "../pipeline/respond-json.ts";
import { runGeneration } from "../pipeline/run-generation.ts";
import { resolveStoredState, type StoredState, type StorePlan } from "../responses/stored-state.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { CLIENT_PROTOCOLS, type UpstreamCallOptions } from "../upstream/protocols.ts";
import { submitBackground } from "./background-response.ts";
import type { HeaderReader } from "./front-door.ts";
import { type NativeTarget, parseNativeTarget } from "./native-target.ts";
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

// What reading a generation request takes beyond the steps every endpoint shares, per client
// format: one row each, so the handler has no format branches and a new format is one row.

export interface ClientReading {
  /** Reads the route's last path segment (still escaped); throws when it names no method. */
  readonly target?: (segment: string) => NativeTarget;
  /** Stored state the body names, resolved before the codec sees it (Responses). */
  readonly state?: (
    services: GatewayServices,
    userId: string,
    wire: Record<string, unknown>,
  ) => Promise<StoredState>;
  /** The canonical request, with what the path says over the body. */
  readonly parse: (
    wire: Record<string, unknown>,
    target: NativeTarget | undefined,
  ) => CanonicalRequest;
  /** Where the body marks cache boundaries (docs/api-reference.md, cache_control). */
  readonly cache?: (canonical: CanonicalRequest, wire: Record<string, unknown>) => CacheAnalysis;
  /** The client headers the upstream call carries on. */
  readonly upstream: (headers: HeaderReader) => UpstreamCallOptions;
}

const parsed = (format: WireFormat) => {
  const request = CLIENT_PROTOCOLS[format].codec.request;
  return (wire: Record<string, unknown>) => request.parse(wire);
};

// A client's `anthropic-version` (or the neutral `vendor-version`) goes toward any Anthropic
// upstream; its `anthropic-beta` only from a messages client, whose protocol it belongs to.
const version = (headers: HeaderReader): UpstreamCallOptions => {
  const anthropicVersion = headers.get("anthropic-version") ?? headers.get("vendor-version");
  return anthropicVersion === null ? {} : { anthropicVersion };
};
const versionAndBeta = (headers: HeaderReader): UpstreamCallOptions => {
  const anthropicBeta = headers.get("anthropic-beta");
  return anthropicBeta === null ? version(headers) : { ...version(headers), anthropicBeta };
};

const parseNative = parsed("native");

export const CLIENT_READING: Readonly<Record<WireFormat, ClientReading>> = {
  chat: {
    parse: parsed("chat"),
    cache: (canonical) => analyzeCache(canonical, "chat"),
    upstream: version,
  },
  // On messages `cache_control` is Anthropic's own: it rides through to an Anthropic upstream
  // and is stripped toward any other (prepare-upstream-request.ts).
  messages: { parse: parsed("messages"), upstream: versionAndBeta },
  // previous_response_id and item_reference become the items they name.
  responses: { state: resolveStoredState, parse: parsed("responses"), upstream: version },
  native: {
    target: (segment) => {
      const target = parseNativeTarget(segment);
      if (target === undefined) {
        throw notFound(
          "unknown method: use {model}:generateContent, {model}:streamGenerateContent or {model}:countTokens",
        );
      }
      return target;
    },
    // The path model wins over a body `model`, which the native codec otherwise reads.
    parse: (wire, target) => {
      const request = parseNative(target === undefined ? wire : { ...wire, model: target.model });
      return target === undefined ? request : { ...request, stream: target.stream };
    },
    cache: (canonical, wire) => {
      const cache = analyzeCache(canonical, "native");
      const ignored = ignoredNativeBoundaries(wire);
      return ignored.length === 0 ? cache : { ...cache, warnings: [...cache.warnings, ...ignored] };
    },
    upstream: version,
  },
};
