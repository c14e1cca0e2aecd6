import type { Readable } from "node:stream";
import { GatewayError, unavailable } from "@interlingua/errors";
import { upstreamSpan } from "../log/tracing.ts";
import type { Release } from "../routing/channel-slots.ts";
import { breakerKey } from "../routing/circuit-breaker.ts";
import type { ModelRouter, RouteCandidate } from "../routing/model-router.ts";
import { type AttemptRecord, attemptRecorder } from "./attempt-record.ts";
import { noChannelAvailable, upstreamFailureToError } from "./upstream-error.ts";
import { failurePolicy, type UpstreamFailure } from "./upstream-failure.ts";

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
  for (const candidate of call.candidates) {
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
    if (tried.kind === "failed" && (await trier.staleCache?.(tried.failure)) === true) {
      record("stale-cache", statusOf(tried.failure));
      const again = await router.slots.acquire(channel, signal);
      if (!again.ok) {
        if (again.reason === "aborted") return gone(record);
        record("queue-timeout");
        lastError = channelsBusy(channel.queueTimeoutMs);
        continue;
      }
      tried = await holdingSlot(again.release, () =>
        trier.attempt(candidate, { again: true, traced }),
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
