import type { ForwardedHeaders } from "@interlingua/core-types";
import type { Dispatcher, FormData } from "undici";
import { withTraceHeaders } from "../log/trace-context.ts";
import type { Channel } from "../routing/channel.ts";
import { PROTOCOLS } from "./protocols.ts";

// The one place a request toward a channel is addressed and signed: the channel's origin and
// base path, its protocol's auth headers, the active span's trace headers, the call's timeouts
// (the channel's own `timeout` unless the call sets its own). Every upstream call of the gateway
// (generation, audio, tasks, Gemini caches, doctor) goes here.

/** What a request needs of a channel: where it is, how it signs, its key and its timeouts. */
export type ChannelAddress = Pick<
  Channel,
  "origin" | "basePath" | "protocol" | "apiKey" | "timeout"
>;

export interface ChannelRequest {
  /** POST unless said. */
  readonly method?: "GET" | "POST";
  /** Under the channel's base path (`/v1/chat/completions`), unless `fromOrigin`. */
  readonly path: string;
  /** `path` is already the whole path on the channel's origin (a URL the upstream handed back). */
  readonly fromOrigin?: boolean;
  /** The request's own headers (content type, accept); the auth headers are added here. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Client headers the protocol may pass on (`anthropic-version`, `anthropic-beta`). */
  readonly forwarded?: ForwardedHeaders;
  /** JSON text, or a form (undici's, which streams its Blob parts, such as a file on disk). */
  readonly body?: string | FormData;
  /** Until the response headers arrive; unset: the channel's `first_byte_ms`, else the agent's. */
  readonly headersTimeoutMs?: number | undefined;
  /** Longest silence between two body chunks; unset: the channel's `idle_ms`, else the agent's. */
  readonly bodyTimeoutMs?: number | undefined;
}

/** `request` addressed to `channel`, with its key in the protocol's headers (no signal). */
export function channelDispatchOptions(
  channel: ChannelAddress,
  request: ChannelRequest,
): Dispatcher.DispatchOptions {
  const auth = PROTOCOLS[channel.protocol].headers(channel.apiKey, request.forwarded);
  const headersTimeout = request.headersTimeoutMs ?? channel.timeout?.firstByteMs;
  const bodyTimeout = request.bodyTimeoutMs ?? channel.timeout?.idleMs;
  return {
    origin: channel.origin,
    path: request.fromOrigin === true ? request.path : channel.basePath + request.path,
    method: request.method ?? "POST",
    // The upstream attempt's span goes along (`traceparent`) when tracing is on.
    headers: withTraceHeaders({ ...request.headers, ...auth }),
    ...(request.body === undefined ? {} : { body: request.body }),
    ...(headersTimeout === undefined ? {} : { headersTimeout }),
    ...(bodyTimeout === undefined ? {} : { bodyTimeout }),
  };
}

/** Sends `request` to `channel`; the reply's body is open (the caller reads or destroys it). */
export function requestChannel(
  dispatcher: Dispatcher,
  channel: ChannelAddress,
  request: ChannelRequest,
  signal?: AbortSignal,
): Promise<Dispatcher.ResponseData> {
  const options: Dispatcher.RequestOptions = channelDispatchOptions(channel, request);
  if (signal !== undefined) options.signal = signal;
  return dispatcher.request(options);
}

/** Sends `request` to `channel` through a handler of the caller's (a whole-body reader). */
export function dispatchToChannel(
  dispatcher: Dispatcher,
  channel: ChannelAddress,
  request: ChannelRequest,
  handler: Dispatcher.DispatchHandler,
): void {
  dispatcher.dispatch(channelDispatchOptions(channel, request), handler);
}

/**
 * A GET of a URL a channel handed back on another origin (storage a download redirects to):
 * sent bare, without the channel's key or the trace headers, which are the channel's only.
 */
export function requestForeignUrl(
  dispatcher: Dispatcher,
  url: URL,
): Promise<Dispatcher.ResponseData> {
  return dispatcher.request({
    origin: url.origin,
    path: url.pathname + url.search,
    method: "GET",
    headers: {},
  });
}
