import {
  type Response as CanonicalResponse,
  parseWireJson,
  type Warning,
} from "@interlingua/core-types";
import { GatewayError, unavailable } from "@interlingua/errors";
import type { Agent } from "undici";
import type { CachePlanOutcome } from "../cache/apply-cache-plan.ts";
import type { CachePlanner } from "../cache/cache-planner.ts";
import { strictRefusal } from "../contract/warnings-header.ts";
import { upstreamSpan } from "../log/tracing.ts";
import type { Release } from "../routing/channel-slots.ts";
import { breakerKey } from "../routing/circuit-breaker.ts";
import type { ModelRouter, RouteCandidate } from "../routing/model-router.ts";
import { startsLikeSse } from "../stream/well-formed-sse.ts";
import { linkedAbort } from "../upstream/linked-abort.ts";
import {
  type PreparedUpstreamRequest,
  prepareUpstreamRequest,
} from "../upstream/prepare-upstream-request.ts";
import { PROTOCOLS } from "../upstream/protocols.ts";
import { readFirstChunk, type StartedUpstreamBody } from "../upstream/read-first-chunk.ts";
import { sendUpstream } from "../upstream/send-upstream.ts";
import { sendUpstreamText } from "../upstream/send-upstream-text.ts";
import { noChannelAvailable, upstreamFailureToError } from "../upstream/upstream-error.ts";
import {
  failureFromError,
  failurePolicy,
  type UpstreamFailure,
} from "../upstream/upstream-failure.ts";
import type { ClientCall, ParsedGeneration } from "./generation-request.ts";
import { thrownRefusal } from "./thrown-refusal.ts";

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
export function attemptRecorder(attempts: AttemptRecord[], channel: string) {
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

interface CommittedBase {
  candidate: RouteCandidate;
  prepared: PreparedUpstreamRequest;
  warnings: Warning[];
  /** How the committed attempt used a cache boundary, when the request had one. */
  cachePlan?: CachePlanOutcome | undefined;
}

/** One attempt's reply, before it is known whether the request commits to it. */
type AttemptReply =
  | (CommittedBase & { kind: "json"; text: string; json: unknown; response?: CanonicalResponse })
  | (CommittedBase & { kind: "stream"; body: StartedUpstreamBody });

/** An upstream reply the gateway has committed to: from here on there is no fallback. */
export type Committed = AttemptReply & {
  /**
   * Token-hours of every Gemini cache created for this request, on any attempt: storage the
   * upstream bills once it exists, whether or not that attempt's call then succeeded.
   */
  cacheStorageTokenHours: number;
};

type AttemptResult = { ok: true; value: AttemptReply } | { ok: false; failure: UpstreamFailure };

/** One channel tried: refused by the render (nothing sent), or sent with its cache plan. */
type ChannelTry =
  | { kind: "refused"; error: GatewayError }
  | { kind: "sent"; plan: CachePlanOutcome | undefined; result: AttemptResult };

/**
 * Tries the planned channels in order until one answers. A channel is given up for the next only
 * before anything has reached the client: on a network error, a timeout, a retryable status, a
 * malformed 2xx body, or a stream that fails before its first chunk.
 */
export async function attemptUpstreams(
  agent: Agent,
  router: ModelRouter,
  request: ClientCall & ParsedGeneration,
  candidates: readonly RouteCandidate[],
  attempts: AttemptRecord[],
  /** Applies the request's cache boundary for one candidate channel (docs/api-reference.md cache rules). */
  planner?: CachePlanner,
): Promise<
  | { ok: true; committed: Committed }
  | {
      ok: false;
      error: GatewayError;
      cacheStorageTokenHours: number;
      /** The client left while an upstream call was under way: it was cancelled (not refunded). */
      clientGone?: true;
    }
> {
  let lastError: GatewayError | undefined;
  let cacheStorageTokenHours = 0;
  /** Plan, render and send for one channel. */
  const tryChannel = async (
    candidate: RouteCandidate,
    warnings: Warning[],
  ): Promise<ChannelTry> => {
    const onWarning = (w: Warning) => warnings.push(w);
    // Strict: a drop the cache analysis already knows of refuses before any cache is planned.
    const early = request.strict === true ? strictRefusal(warnings) : undefined;
    if (early !== undefined) return { kind: "refused", error: early };
    const plan = await planner?.plan(candidate, onWarning);
    cacheStorageTokenHours += plan?.storageTokenHours ?? 0;
    let prepared: PreparedUpstreamRequest;
    try {
      prepared = prepareUpstreamRequest(request, candidate, onWarning, plan?.canonical);
    } catch (error) {
      return { kind: "refused", error: thrownRefusal(error) };
    }
    // Strict: whatever this render would drop refuses this channel (another may carry it).
    const refusal = request.strict === true ? strictRefusal(warnings) : undefined;
    if (refusal !== undefined) return { kind: "refused", error: refusal };
    return {
      kind: "sent",
      plan,
      result: await upstreamSpan(candidate.channel.name, candidate.channel.protocol, () =>
        attemptOne(agent, request, candidate, prepared, warnings),
      ),
    };
  };
  for (const candidate of candidates) {
    const record = attemptRecorder(attempts, candidate.channel.name);
    const circuit = breakerKey(candidate.channel.name, candidate.upstreamModel);
    // A connection slot first (a bounded wait), so a half-open trial is not spent waiting.
    const slot = await router.slots.acquire(candidate.channel, request.signal);
    if (!slot.ok) {
      if (slot.reason === "aborted") {
        record("client-gone");
        return { ok: false, error: clientGone(), cacheStorageTokenHours, clientGone: true };
      }
      record("queue-timeout");
      lastError = channelsBusy(candidate.channel.queueTimeoutMs);
      continue;
    }
    if (!router.breaker.tryAcquire(circuit)) {
      slot.release();
      record("skipped-open-circuit");
      continue;
    }
    // The cache analysis's own warnings (a boundary ignored or dropped) go with every attempt's.
    const warnings: Warning[] = [...request.cache.warnings, ...(request.notes ?? [])];
    const started = performance.now();
    let tried = await holdingSlot(slot.release, () => tryChannel(candidate, warnings));
    // A cache the registry still lists but the upstream no longer has: the same channel once
    // more with a fresh plan (a new cache, or an ordinary request); the refusal was not its fault.
    if (
      tried.kind === "sent" &&
      !tried.result.ok &&
      (await planner?.staleCache(tried.plan, tried.result.failure)) === true
    ) {
      const failure = tried.result.failure;
      record("stale-cache", failure.kind === "status" ? failure.status : undefined);
      const again = await router.slots.acquire(candidate.channel, request.signal);
      if (!again.ok) {
        lastError = channelsBusy(candidate.channel.queueTimeoutMs);
        record(again.reason === "aborted" ? "client-gone" : "queue-timeout");
        if (again.reason === "aborted") {
          return { ok: false, error: clientGone(), cacheStorageTokenHours, clientGone: true };
        }
        continue;
      }
      tried = await holdingSlot(again.release, () => tryChannel(candidate, warnings));
    }
    if (tried.kind === "refused") {
      // This protocol cannot express the request; another channel's protocol may.
      record("refused-by-render");
      lastError = tried.error;
      continue;
    }
    const { result, plan: cachePlan } = tried;
    const elapsed = Math.round(performance.now() - started);
    if (result.ok) {
      router.breaker.onSuccess(circuit);
      router.health.record(candidate.channel.name, true, elapsed);
      record("ok");
      return { ok: true, committed: { ...result.value, cachePlan, cacheStorageTokenHours } };
    }
    const failure = result.failure;
    if (request.signal?.aborted === true) {
      // The client left: its call was cancelled, which is no fault of the channel's.
      record("client-gone");
      return { ok: false, error: clientGone(), cacheStorageTokenHours, clientGone: true };
    }
    record(failure.kind, failure.kind === "status" ? failure.status : undefined);
    const policy = failurePolicy(failure);
    // Only what says the channel is unhealthy counts, per (channel, model) and per caller.
    if (policy.health === "unhealthy") router.breaker.onFailure(circuit, String(request.token.id));
    else if (policy.health === "alive") router.breaker.onSuccess(circuit);
    router.health.record(candidate.channel.name, policy.health !== "unhealthy", elapsed);
    lastError = upstreamFailureToError(candidate.channel.protocol, failure);
    if (!policy.retry) break;
  }
  return { ok: false, error: lastError ?? noChannelAvailable(), cacheStorageTokenHours };
}

async function attemptOne(
  agent: Agent,
  request: ClientCall & ParsedGeneration,
  candidate: RouteCandidate,
  prepared: PreparedUpstreamRequest,
  warnings: Warning[],
): Promise<AttemptResult> {
  const timeout = candidate.channel.timeout;
  const sent = performance.now();
  const base = { candidate, prepared, warnings };
  const timeouts = { headersTimeoutMs: timeout?.firstByteMs, bodyTimeoutMs: timeout?.idleMs };
  if (!request.stream) {
    // The client's leaving cancels the call until its whole reply is read (the handler unlinks).
    const read = await sendUpstreamText(agent, prepared, { signal: request.signal, ...timeouts });
    if (!read.ok) return read;
    return parseJsonReply(candidate, prepared, base, read.text);
  }
  // Until the commit the client's leaving cancels the call; a committed stream's relay does after.
  const cancel = linkedAbort(request.signal);
  try {
    const reply = await sendUpstream(agent, prepared, { signal: cancel.signal, ...timeouts });
    if (!reply.ok) return reply;
    const first = await readFirstChunk(
      reply.body,
      timeout?.firstByteMs === undefined
        ? undefined
        : timeout.firstByteMs - (performance.now() - sent),
    );
    if (!first.ok) return { ok: false, failure: failureFromError(first.error) };
    // A JSON or HTML body answering a stream request is no stream: nothing of it is relayed.
    if (!startsLikeSse(first.body.first)) {
      first.body.rest.destroy();
      return {
        ok: false,
        failure: { kind: "malformed", message: "upstream answered a stream request without SSE" },
      };
    }
    return { ok: true, value: { ...base, kind: "stream", body: first.body } };
  } finally {
    cancel.unlink();
  }
}

/**
 * Runs one try holding a connection slot: a committed stream keeps it until its body closes
 * (ended, failed or cancelled); anything else gives it back when the try returns.
 */
async function holdingSlot(
  release: Release,
  attempt: () => Promise<ChannelTry>,
): Promise<ChannelTry> {
  let tried: ChannelTry;
  try {
    tried = await attempt();
  } catch (error) {
    release();
    throw error;
  }
  const body =
    tried.kind === "sent" && tried.result.ok && tried.result.value.kind === "stream"
      ? tried.result.value.body.rest
      : undefined;
  if (body === undefined || body.destroyed) release();
  else body.once("close", release);
  return tried;
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

/** A whole non-stream reply: JSON, and across formats one the upstream codec reads. */
function parseJsonReply(
  candidate: RouteCandidate,
  prepared: PreparedUpstreamRequest,
  base: CommittedBase,
  text: string,
): AttemptResult {
  let json: unknown;
  try {
    json = parseWireJson(text);
  } catch {
    return { ok: false, failure: { kind: "malformed", message: "upstream body is not JSON" } };
  }
  if (prepared.sameFormat) return { ok: true, value: { ...base, kind: "json", text: text, json } };
  try {
    const codec = PROTOCOLS[candidate.channel.protocol].upstreamCodec;
    // What the reply held that the client's format only approximates is reported, not lost.
    const response = codec.response.parse(json, { onWarning: (w) => base.warnings.push(w) });
    return { ok: true, value: { ...base, kind: "json", text: text, json, response } };
  } catch (error) {
    return {
      ok: false,
      failure: {
        kind: "malformed",
        message: `upstream body does not fit its protocol: ${(error as Error).message}`,
      },
    };
  }
}
