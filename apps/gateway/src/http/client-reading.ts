import {
  analyzeCache,
  type CacheAnalysis,
  ignoredNativeBoundaries,
} from "@interlingua/cache-control";
import type { Request as CanonicalRequest, WireFormat } from "@interlingua/core-types";
import { notFound } from "@interlingua/errors";
import { resolveStoredState, type StoredState } from "../responses/stored-state.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { CLIENT_PROTOCOLS, type UpstreamCallOptions } from "../upstream/protocols.ts";
import type { HeaderReader } from "./incoming-request.ts";
import { type NativeTarget, parseNativeTarget } from "./native-target.ts";

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
