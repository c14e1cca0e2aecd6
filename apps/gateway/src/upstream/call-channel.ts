import type { Readable } from "node:stream";
import type { ForwardedHeaders } from "@interlingua/core-types";
import { GatewayError, unavailable } from "@interlingua/errors";
import { type Agent, type Dispatcher, errors, type FormData } from "undici";
import { withTraceHeaders } from "../log/trace-context.ts";
import { upstreamSpan } from "../log/tracing.ts";
import type { Channel } from "../routing/channel.ts";
import {
  breakerKey,
  type ModelRouter,
  type Release,
  type RouteCandidate,
} from "../routing/model-router.ts";
import { discardBody } from "./discard-body.ts";
import type { PreparedUpstreamRequest } from "./prepare-upstream-request.ts";
import { PROTOCOLS } from "./protocols.ts";
import { noChannelAvailable, upstreamFailureToError } from "./upstream-error.ts";
import {
  failureFromError,
  failurePolicy,
  statusFailure,
  type UpstreamFailure,
} from "./upstream-failure.ts";

// The one way to call an upstream: the planned channels in order, each behind a connection slot
// (a bounded wait) and its circuit breaker, the next one only on a failure that says another
// channel may do better, every try recorded, the client's leaving ending it all. What one try
// sends is the caller's (`ChannelTrier`); how tries follow each other is decided here.

/** Who calls, over which channels, and where the tries are recorded. */
export interface ChannelCall {
  readonly router: Pick<ModelRouter, "slots" | "breaker" | "health">;
  /** In the order to try them (`ModelRouter.plan`). */
  readonly candidates: readonly RouteCandidate[];
  readonly attempts: AttemptRecord[];
  /** The client's: its abort ends the call as "client gone" (499). */
  readonly signal: AbortSignal | undefined;
  /** Who the call is for (the token id): one caller alone cannot open a circuit. */
  readonly source: string;
}

/** How one try on a channel went. */
export type ChannelTry<T> =
  | {
      readonly kind: "ok";
      readonly value: T;
      /** A body still open for the caller: the channel's slot is held until it closes. */
      readonly held?: Readable | undefined;
    }
  | { readonly kind: "failed"; readonly failure: UpstreamFailure }
  /** Nothing was sent: this channel's protocol cannot carry the request (another's may). */
  | { readonly kind: "refused"; readonly error: GatewayError };

export interface TryContext {
  /** The try's second run on the same channel (after `staleCache` said so). */
  readonly again: boolean;
  /** Runs the send inside the attempt's client span (channel and protocol named). */
  traced<R>(run: () => Promise<R>): Promise<R>;
}

/** The protocol-specific part of a call: one try on one channel. */
export interface ChannelTrier<T> {
  attempt(candidate: RouteCandidate, context: TryContext): Promise<ChannelTry<T>>;
  /**
   * After a failed try: whether it failed on a cache the upstream no longer has, so the same
   * channel gets one more try (a fresh plan); the refusal was not the channel's fault.
   */
  staleCache?(failure: UpstreamFailure): Promise<boolean>;
}

export type ChannelCallResult<T> =
  | { readonly ok: true; readonly candidate: RouteCandidate; readonly value: T }
  | {
      readonly ok: false;
      readonly error: GatewayError;
      /** The client left while the call was under way: it was cancelled. */
      readonly clientGone: boolean;
    };

const statusOf = (failure: UpstreamFailure) =>
  failure.kind === "status" ? failure.status : undefined;

/**
 * Tries the candidates in order until one answers. A channel is given up for the next only on a
 * failure `failurePolicy` retries (network error, timeout, channel-fault status, unreadable
 * reply), a full channel (queue timeout), an open circuit or a refusing render; a caller's 4xx
 * is final. When every channel was busy the answer is 503 with Retry-After.
 */
export async function callChannel<T>(
  call: ChannelCall,
  trier: ChannelTrier<T>,
): Promise<ChannelCallResult<T>> {
  const { router, signal } = call;
  let lastError: GatewayError | undefined;
  for (const [index, candidate] of call.candidates.entries()) {
    const { channel } = candidate;
    const record = attemptRecorder(call.attempts, channel.name);
    const circuit = breakerKey(channel.name, candidate.upstreamModel);
    const traced = <R>(run: () => Promise<R>) => upstreamSpan(channel.name, channel.protocol, run);
    // A connection slot first (a bounded wait), so a half-open trial is not spent waiting.
    const slot = await router.slots.acquire(channel, signal);
    if (!slot.ok) {
      if (slot.reason === "aborted") return gone(record);
      record("queue-timeout");
      lastError = channelsBusy(channel.queueTimeoutMs);
      continue;
    }
    if (!router.breaker.tryAcquire(circuit)) {
      slot.release();
      record("skipped-open-circuit");
      continue;
    }
    const started = performance.now();
    let tried = await holdingSlot(slot.release, () =>
      trier.attempt(candidate, { again: false, traced }),
    );
    const first = tried.kind === "failed" ? tried.failure : undefined;
    const last = index === call.candidates.length - 1;
    const retry = first && (await sameChannelRetry(trier, first, last));
    if (first !== undefined && retry !== undefined && signal?.aborted !== true) {
      record(retry.outcome, statusOf(first));
      const again = await router.slots.acquire(channel, signal);
      if (!again.ok) {
        if (again.reason === "aborted") return gone(record);
        record("queue-timeout");
        lastError = channelsBusy(channel.queueTimeoutMs);
        continue;
      }
      tried = await holdingSlot(again.release, () =>
        trier.attempt(candidate, { again: retry.again, traced }),
      );
    }
    if (tried.kind === "refused") {
      record("refused-by-render");
      lastError = tried.error;
      continue;
    }
    const elapsed = Math.round(performance.now() - started);
    if (tried.kind === "ok") {
      router.breaker.onSuccess(circuit);
      router.health.record(channel.name, true, elapsed);
      record("ok");
      return { ok: true, candidate, value: tried.value };
    }
    // The client left: its call was cancelled, which is no fault of the channel's.
    if (signal?.aborted === true) return gone(record);
    const failure = tried.failure;
    record(failure.kind, statusOf(failure));
    const policy = failurePolicy(failure);
    // Only what says the channel is unhealthy counts, per (channel, model) and per caller.
    if (policy.health === "unhealthy") router.breaker.onFailure(circuit, call.source);
    else if (policy.health === "alive") router.breaker.onSuccess(circuit);
    router.health.record(channel.name, policy.health !== "unhealthy", elapsed);
    lastError = upstreamFailureToError(channel.protocol, failure);
    if (!policy.retry) break;
  }
  return { ok: false, error: lastError ?? noChannelAvailable(), clientGone: false };
}

/**
 * Whether a failed try goes once more to the same channel, and how: a cache the upstream no
 * longer has is re-created (`again`). A connection it closed before answering is replaced by a
 * fresh one when no other channel is left (another channel is a fresh connection already); the
 * providers' own SDKs retry connection errors the same way.
 */
async function sameChannelRetry<T>(
  trier: ChannelTrier<T>,
  failure: UpstreamFailure,
  last: boolean,
): Promise<{ outcome: AttemptRecord["outcome"]; again: boolean } | undefined> {
  if ((await trier.staleCache?.(failure)) === true) return { outcome: "stale-cache", again: true };
  if (last && failure.kind === "connection" && failure.closedUnanswered === true)
    return { outcome: "connection", again: false };
  return undefined;
}

/**
 * Runs one try holding a connection slot: a body the try hands on keeps it until the body
 * closes (ended, failed or cancelled); anything else gives it back when the try returns.
 */
async function holdingSlot<T>(
  release: Release,
  attempt: () => Promise<ChannelTry<T>>,
): Promise<ChannelTry<T>> {
  let tried: ChannelTry<T>;
  try {
    tried = await attempt();
  } catch (error) {
    release();
    throw error;
  }
  const body = tried.kind === "ok" ? tried.held : undefined;
  if (body === undefined || body.destroyed) release();
  // `on`, not `once`: close comes once, and a once-wrapper is two more objects per stream.
  else body.on("close", release);
  return tried;
}

/** The client left: recorded, and answered with the error its request is logged with. */
function gone(record: (outcome: AttemptRecord["outcome"]) => void) {
  record("client-gone");
  return { ok: false, error: clientGone(), clientGone: true } as const;
}

/** Every slot of every channel tried stayed taken past the channels' queue time. */
const channelsBusy = (waitedMs: number): GatewayError =>
  unavailable(
    `every connection to this model's upstream channels is in use (waited ${waitedMs} ms); retry shortly`,
    { retryAfterSeconds: 1 },
  );

/** The error a request whose client left is logged with (nobody reads its body). */
const clientGone = () =>
  new GatewayError({ status: 499, message: "the client closed the connection" });

/** One try against one channel, for the request log. */
export interface AttemptRecord {
  channel: string;
  outcome:
    | "ok"
    | "skipped-open-circuit"
    | "refused-by-render"
    | "stale-cache"
    | "client-gone"
    | "queue-timeout"
    | UpstreamFailure["kind"];
  status?: number;
  ms: number;
}

/** Starts timing one attempt on a channel; the function it returns records how it ended. */
function attemptRecorder(attempts: AttemptRecord[], channel: string) {
  const started = performance.now();
  return (outcome: AttemptRecord["outcome"], status?: number): void => {
    attempts.push({
      channel,
      outcome,
      ...(status === undefined ? {} : { status }),
      ms: Math.round(performance.now() - started),
    });
  };
}

// Sending a prepared generation request: its reply as an open body, or read whole.

/** The most of an upstream error body the gateway reads: enough for any real error object. */
export const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * The most of a whole (non-stream) 2xx reply the gateway reads, and of one stream event: room
 * for several large inline images (a Gemini image reply carries them base64), yet a bound, so an
 * upstream that never stops sending cannot take the process's memory.
 */
export const REPLY_BODY_LIMIT = 64 * 1024 * 1024;

export type UpstreamBody = Dispatcher.ResponseData["body"];

/** Per call: the client's cancel, and the channel's own timeouts (else the agent's). */
export interface SendOptions {
  signal?: AbortSignal | undefined;
  /** Until the response headers arrive (a non-stream reply is generated by then). */
  headersTimeoutMs?: number | undefined;
  /** Longest silence between two body chunks. */
  bodyTimeoutMs?: number | undefined;
  /** The most of a whole 2xx body read (`sendUpstreamText`); REPLY_BODY_LIMIT when unset. */
  maxReplyBytes?: number | undefined;
}

/** The POST of `prepared` with the call's timeouts (the signal is each sender's own business). */
function channelRequestOf(prepared: PreparedUpstreamRequest, options: SendOptions): ChannelRequest {
  return {
    path: prepared.path,
    headers: prepared.headers,
    forwarded: prepared.forwarded,
    body: prepared.body,
    headersTimeoutMs: options.headersTimeoutMs,
    bodyTimeoutMs: options.bodyTimeoutMs,
  };
}

export type UpstreamReply =
  | { ok: true; status: number; body: UpstreamBody }
  | { ok: false; failure: UpstreamFailure };

/**
 * Sends one request over the pooled agent. A 2xx comes back as an open body stream; anything else
 * is read (bounded) into a failure so the caller can decide whether another channel should try.
 */
export async function sendUpstream(
  agent: Agent,
  prepared: PreparedUpstreamRequest,
  options: SendOptions = {},
): Promise<UpstreamReply> {
  let response: Dispatcher.ResponseData;
  try {
    const request = channelRequestOf(prepared, options);
    response = await requestChannel(agent, prepared.channel, request, options.signal);
  } catch (error) {
    return { ok: false, failure: failureFromError(error, true) };
  }
  if (response.statusCode >= 200 && response.statusCode < 300) {
    return { ok: true, status: response.statusCode, body: response.body };
  }
  let text = "";
  try {
    for await (const chunk of response.body) {
      text += chunk.toString();
      if (text.length > ERROR_BODY_LIMIT) {
        discardBody(response.body);
        break;
      }
    }
  } catch {
    // A reset while reading an error body still leaves the status to report.
  }
  return { ok: false, failure: statusFailure(response.statusCode, response.headers, text) };
}

export type UpstreamText =
  | { ok: true; status: number; text: string }
  | { ok: false; failure: UpstreamFailure };

/**
 * `sendUpstream` and a whole-body read for a non-stream call, in one dispatch handler: the chunks
 * are collected as they come, with no response body stream between (measured: a few µs a call).
 * Outcomes as the two would give: a 2xx as its text (UTF-8, a leading BOM skipped, as undici's
 * `text()` does), another status as a failure with up to ERROR_BODY_LIMIT of its body, an
 * error, timeout or abort (the signal's reason) as a failure. A 2xx body longer than
 * `maxReplyBytes` is a malformed reply: the call is aborted as the limit is passed, not read on.
 */
export function sendUpstreamText(
  agent: Agent,
  prepared: PreparedUpstreamRequest,
  options: SendOptions = {},
): Promise<UpstreamText> {
  return new Promise((resolve) => {
    const handler = new TextHandler(
      resolve,
      options.signal,
      options.maxReplyBytes ?? REPLY_BODY_LIMIT,
    );
    try {
      const request = channelRequestOf(prepared, options);
      agent.dispatch(channelDispatchOptions(prepared.channel, request), handler);
    } catch (error) {
      handler.fail(error);
    }
  });
}

const BOM = [0xef, 0xbb, 0xbf] as const;

class TextHandler implements Dispatcher.DispatchHandler {
  readonly #resolve: (result: UpstreamText) => void;
  readonly #signal: AbortSignal | undefined;
  readonly #maxBytes: number;
  #controller: Dispatcher.DispatchController | undefined;
  #status = 0;
  #headers: Record<string, string | string[] | undefined> = {};
  readonly #chunks: Buffer[] = [];
  #size = 0;
  /** A non-2xx body as read so far (ERROR_BODY_LIMIT bounds it). */
  #errorText = "";
  #done = false;

  constructor(
    resolve: (result: UpstreamText) => void,
    signal: AbortSignal | undefined,
    maxBytes: number,
  ) {
    this.#resolve = resolve;
    this.#signal = signal;
    this.#maxBytes = maxBytes;
    signal?.addEventListener("abort", this.#onAbort, { once: true });
  }

  #onAbort = () => this.#controller?.abort(this.#reason());

  #reason = (): Error => this.#signal?.reason ?? new errors.RequestAbortedError();

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#signal?.aborted === true) controller.abort(this.#reason());
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    if (statusCode < 200) return;
    this.#status = statusCode;
    this.#headers = headers;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#ok()) {
      this.#size += chunk.length;
      if (this.#size > this.#maxBytes) {
        this.#chunks.length = 0;
        const message = `upstream reply larger than ${this.#maxBytes} bytes`;
        this.#finish({ ok: false, failure: { kind: "malformed", message } });
        controller.abort(new errors.RequestAbortedError());
        return;
      }
      this.#chunks.push(chunk);
      return;
    }
    this.#errorText += chunk.toString();
    if (this.#errorText.length > ERROR_BODY_LIMIT) {
      this.#finish({ ok: false, failure: this.#statusFailure() });
      controller.abort(new errors.RequestAbortedError());
    }
  }

  onResponseEnd(): void {
    if (!this.#ok()) {
      this.#finish({ ok: false, failure: this.#statusFailure() });
      return;
    }
    const chunks = this.#chunks;
    const buffer = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.#size);
    const start =
      buffer.length > 2 && buffer[0] === BOM[0] && buffer[1] === BOM[1] && buffer[2] === BOM[2]
        ? 3
        : 0;
    this.#finish({ ok: true, status: this.#status, text: buffer.toString("utf8", start) });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.fail(error);
  }

  /** A failure before the status (or mid-way through a 2xx body); a non-2xx keeps its status. */
  fail(error: unknown): void {
    if (this.#status !== 0 && !this.#ok()) {
      // A reset while reading an error body still leaves the status to report.
      this.#finish({ ok: false, failure: this.#statusFailure() });
      return;
    }
    this.#finish({ ok: false, failure: failureFromError(error, this.#status === 0) });
  }

  #ok(): boolean {
    return this.#status >= 200 && this.#status < 300;
  }

  #statusFailure(): UpstreamFailure {
    return statusFailure(this.#status, this.#headers, this.#errorText);
  }

  #finish(result: UpstreamText): void {
    if (this.#done) return;
    this.#done = true;
    this.#signal?.removeEventListener("abort", this.#onAbort);
    this.#resolve(result);
  }
}

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
  // undici's request API keeps the body it was given for the call's life and sends a Buffer made
  // from it: given that Buffer, a stream holds its prompt once, not twice (stream-heap bench).
  if (typeof options.body === "string") options.body = Buffer.from(options.body);
  if (signal !== undefined) options.signal = signal;
  return dispatcher.request(options);
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
