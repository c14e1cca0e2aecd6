import {
  cacheControlDropped,
  canonicalCacheControlPaths,
  stripWireCacheControl,
} from "@interlingua/cache-control";
import {
  type ForwardedHeaders,
  lowerClientTools,
  type Protocol,
  type Request,
  type RequestProviderExtras,
  renameTools,
  stringifyJsonKeepingNumbers,
  stripCacheControl,
  type UpstreamProtocol,
  type Warning,
  type WireFormat,
} from "@interlingua/core-types";
import { invalidRequest } from "@interlingua/errors";
import type { RouteCandidate } from "../routing/model-router.ts";
import type { ChannelAddress } from "./call-channel.ts";
import {
  CLIENT_PROTOCOLS,
  forwardedHeaders,
  PROTOCOLS,
  type UpstreamCallOptions,
} from "./protocols.ts";

/** What preparing an upstream call reads of a client request. */
export interface UpstreamInput {
  readonly endpoint: { readonly format: WireFormat };
  readonly wire: Record<string, unknown>;
  readonly canonical: Request;
  readonly stream: boolean;
  readonly upstream: UpstreamCallOptions;
}

export interface PreparedUpstreamRequest {
  /** The channel it goes to: call-channel.ts addresses it and adds the key. */
  readonly channel: ChannelAddress;
  /** Under the channel's base path. */
  readonly path: string;
  /** The request's own headers (content type, accept); not the auth ones. */
  readonly headers: Record<string, string>;
  /** The client's headers the protocol may pass on. */
  readonly forwarded: ForwardedHeaders;
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

export function prepareUpstreamRequest(
  request: UpstreamInput,
  candidate: RouteCandidate,
  onWarning: (warning: Warning) => void,
  /** A request the cache plan rewrote: rendered even in the client's own format. */
  planned?: Request,
): PreparedUpstreamRequest {
  const { channel, upstreamModel } = candidate;
  const protocol = PROTOCOLS[channel.protocol];
  const target = {
    channel,
    path: protocol.path(upstreamModel, request.stream),
    forwarded: forwardedHeaders(request.upstream),
  };
  const headers = {
    "content-type": "application/json",
    accept: request.stream ? "text/event-stream" : "application/json",
  };
  const sameFormat = protocol.forwardsClientBody && protocol.format === request.endpoint.format;
  if (sameFormat && planned === undefined) {
    // Where the format has `cache_control` only as the gateway's hint, a forwarded body loses it.
    const { wire, removed } =
      protocol.hintCacheControlAt === undefined
        ? { wire: request.wire, removed: [] }
        : stripWireCacheControl(protocol.hintCacheControlAt, request.wire);
    if (removed.length > 0) onWarning(cacheControlDropped(removed, channel.protocol));
    const forwarded = protocol.forward(wire, upstreamModel, request.stream, onWarning);
    return {
      ...target,
      headers,
      body: stringifyJsonKeepingNumbers(forwarded.wire),
      sameFormat: true,
      injectedUsage: forwarded.injectedUsage,
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
  // An upstream that reports streamed usage only when asked is asked; billing always needs it.
  const askUsage = request.stream && protocol.usageOnRequest;
  const defaulted = withClientDefaults(
    planned ?? unplanned(request.canonical, channel.protocol, onWarning),
    request.endpoint.format,
    protocol,
  );
  const canonical: Request = {
    ...defaulted,
    model: upstreamModel,
    stream: request.stream,
    ...(askUsage ? { providerExtras: askingUsage(defaulted.providerExtras) } : {}),
  };
  // Namespace and custom tools go as they are where the provider has them; elsewhere they are
  // function tools, and the reply's calls are lifted back (fill-translated.ts).
  const lowered = protocol.clientTools ? canonical : lowerClientTools(canonical, onWarning);
  // Names the upstream would refuse (`a.b`, `ns/tool`, over 64) go renamed, and come back.
  const named = renameTools(lowered, protocol.toolNames);
  const prepared = protocol.prepare?.(named.request, onWarning) ?? named.request;
  const rendered = protocol.upstreamCodec.request.render(prepared, { onWarning }) as Wire;
  const body = protocol.finish === undefined ? rendered : protocol.finish(rendered);
  // A rendered body in the client's own format still gets its reply back byte for byte.
  const injectedUsage =
    sameFormat && askUsage && request.canonical.providerExtras?.openai?.includeUsage !== true;
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

/** The request's provider extras with chat's usage chunk asked for (billing reads it). */
function askingUsage(extras: RequestProviderExtras | undefined): RequestProviderExtras {
  return { ...extras, openai: { ...extras?.openai, includeUsage: true } };
}

// What a client format implies that another protocol's render must say or refuse.

/**
 * A request of client format F rendered for an upstream of another format keeps only what the
 * canonical model holds; the rest of F's fields (kept in extras for F's own upstreams) would
 * vanish. Each is reported as `dropped`, or refused with a 400 naming it where F's table says
 * no upstream can honour it (`previous_response_id`: state the gateway does not keep).
 */
export function reportUntranslatedFields(
  format: WireFormat,
  canonical: Request,
  protocol: UpstreamProtocol,
  onWarning: (warning: Warning) => void,
  /** The upstream's codec writes F's extras back (responses toward the Responses API): none drop. */
  carried = false,
): void {
  const client = CLIENT_PROTOCOLS[format];
  const refusal = client.untranslatable?.(canonical);
  if (refusal !== undefined) throw refusal;
  for (const path of client.untranslatedFields(canonical)) {
    if (client.requestFields[path] === "refused") {
      throw invalidRequest(
        `${path}: not supported by this gateway (the ${protocol} upstream cannot honour it and dropping it would change the request)`,
        path,
      );
    }
    if (carried) continue;
    onWarning({
      type: "dropped",
      feature: path,
      message: `the ${protocol} upstream has no equivalent of this ${format} field`,
    });
  }
}

/**
 * Makes a client format's implied defaults explicit for an upstream whose default differs: Claude
 * shows thinking unless told otherwise; some providers (Gemini, the Responses API's summaries)
 * only when asked.
 */
export function withClientDefaults(
  request: Request,
  client: WireFormat,
  upstream: Pick<Protocol, "hidesThoughts">,
): Request {
  const thinking = request.thinking;
  if (client !== "messages" || !upstream.hidesThoughts || thinking === undefined) return request;
  if (thinking.type === "disabled" || thinking.includeThoughts !== undefined) return request;
  return { ...request, thinking: { ...thinking, includeThoughts: true } };
}
