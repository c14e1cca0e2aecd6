import {
  cacheControlDropped,
  canonicalCacheControlPaths,
  stripCacheControl,
  stripWireCacheControl,
} from "@interlingua/cache-control";
import {
  lowerClientTools,
  type Request,
  renameTools,
  stringifyJsonKeepingNumbers,
  type UpstreamProtocol,
  type Warning,
  type WireFormat,
} from "@interlingua/core-types";
import type { RouteCandidate } from "../routing/model-router.ts";
import { reportUntranslatedFields } from "./client-fields.ts";
import { withClientDefaults } from "./client-format-defaults.ts";
import { withSignedToolTurn } from "./signed-tool-turn.ts";
import { UPSTREAM_PROTOCOLS, type UpstreamCallOptions } from "./upstream-protocols.ts";

/** What preparing an upstream call reads of a client request. */
export interface UpstreamInput {
  readonly endpoint: { readonly format: WireFormat };
  readonly wire: Record<string, unknown>;
  readonly canonical: Request;
  readonly stream: boolean;
  readonly upstream: UpstreamCallOptions;
}

export interface PreparedUpstreamRequest {
  /** Where the request goes, as the pooled client takes it (no URL parse per request). */
  readonly origin: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** The client format equals the upstream protocol: bytes pass through untouched. */
  readonly sameFormat: boolean;
  /**
   * The gateway asked an OpenAI upstream for a usage frame the client did not ask for (billing
   * needs it); that frame is then kept from the client.
   */
  readonly injectedUsage: boolean;
  /** Tool names renamed for this upstream (its name rule), back to the client's (`renameTools`). */
  readonly toolNames?: ReadonlyMap<string, string>;
}

type Wire = Record<string, unknown>;

/** The client's body in its own format, and the `cache_control` paths taken out of it. */
type Stripped = { wire: Wire; removed: string[] };

/**
 * Chat and native lose `cache_control` (docs/api-reference.md's boundary: only the gateway's plan acts on it,
 * rule 8); messages keep it, as the client's own Anthropic feature passed through.
 */
const SAME_FORMAT_EDITS: Record<
  "chat" | "messages" | "native",
  (wire: Wire, model: string, stream: boolean) => Stripped & { injectedUsage: boolean }
> = {
  chat: (client, model, stream) => {
    const { wire, removed } = stripWireCacheControl("chat", client);
    const options = (wire["stream_options"] ?? {}) as Wire;
    const inject = stream && options["include_usage"] !== true;
    return {
      wire: inject
        ? { ...wire, model, stream_options: { ...options, include_usage: true } }
        : { ...wire, model },
      removed,
      injectedUsage: inject,
    };
  },
  messages: (wire, model) => ({ wire: { ...wire, model }, removed: [], injectedUsage: false }),
  // A body `model` (which clients may send) could contradict the path's upstream id.
  native: ({ model: _model, ...client }) => ({
    ...stripWireCacheControl("native", client),
    injectedUsage: false,
  }),
};

export function prepareUpstreamRequest(
  request: UpstreamInput,
  candidate: RouteCandidate,
  onWarning: (warning: Warning) => void,
  /** A request the cache plan rewrote: rendered even in the client's own format. */
  planned?: Request,
): PreparedUpstreamRequest {
  const { channel, upstreamModel } = candidate;
  const protocol = UPSTREAM_PROTOCOLS[channel.protocol];
  const target = {
    origin: channel.origin,
    path: channel.basePath + protocol.path(upstreamModel, request.stream),
  };
  const headers = {
    "content-type": "application/json",
    accept: request.stream ? "text/event-stream" : "application/json",
    ...protocol.headers(channel.apiKey, request.upstream),
  };
  const format = protocol.format;
  const sameFormat = format === request.endpoint.format;
  if (sameFormat && planned === undefined) {
    const { wire, removed, injectedUsage } = SAME_FORMAT_EDITS[format](
      request.wire,
      upstreamModel,
      request.stream,
    );
    if (removed.length > 0) onWarning(cacheControlDropped(removed, channel.protocol));
    const forwarded = format === "messages" ? withSignedToolTurn(wire, onWarning) : wire;
    return {
      ...target,
      headers,
      body: stringifyJsonKeepingNumbers(forwarded),
      sameFormat: true,
      injectedUsage,
    };
  }
  // The client's own fields the canonical model does not hold stay behind: reported (or refused).
  if (!sameFormat) {
    reportUntranslatedFields(
      request.endpoint.format,
      request.canonical,
      channel.protocol,
      onWarning,
      protocol.carries === request.endpoint.format,
    );
  }
  // An OpenAI upstream only reports streamed usage when asked; billing always needs it.
  const askUsage = request.stream && protocol.format === "chat";
  const canonical: Request = {
    ...withClientDefaults(
      planned ?? unplanned(request.canonical, channel.protocol, onWarning),
      request.endpoint.format,
      protocol.format ?? channel.protocol,
    ),
    model: upstreamModel,
    stream: request.stream,
    ...(askUsage ? { includeUsage: true } : {}),
  };
  // Only the Responses API has namespace and custom tools; elsewhere they are function tools,
  // and the reply's calls are lifted back (fill-translated.ts).
  const lowered =
    channel.protocol === "openai-responses" ? canonical : lowerClientTools(canonical, onWarning);
  // Names the upstream would refuse (`a.b`, `ns/tool`, over 64) go renamed, and come back.
  const named = renameTools(lowered, protocol.toolNames);
  const prepared = protocol.prepare?.(named.request, onWarning) ?? named.request;
  const rendered = protocol.codec.request.render(prepared, { onWarning }) as Wire;
  const body = protocol.finish === undefined ? rendered : protocol.finish(rendered);
  // A rendered body in the client's own format still gets its reply back byte for byte.
  const injectedUsage = sameFormat && askUsage && request.canonical.includeUsage !== true;
  return {
    ...target,
    headers,
    body: stringifyJsonKeepingNumbers(body),
    sameFormat,
    injectedUsage,
    ...(named.original.size === 0 ? {} : { toolNames: named.original }),
  };
}

/**
 * A request without a cache plan, rendered for another protocol: stripped of every boundary
 * (rule 8). That covers a messages client's Anthropic cache_control toward OpenAI or Gemini, which
 * have no such field (Gemini refuses it), and boundaries the analysis had no use for.
 */
function unplanned(
  request: Request,
  protocol: UpstreamProtocol,
  onWarning: (warning: Warning) => void,
): Request {
  const removed = canonicalCacheControlPaths(request);
  if (removed.length === 0) return request;
  onWarning(cacheControlDropped(removed, protocol));
  return stripCacheControl(request);
}
