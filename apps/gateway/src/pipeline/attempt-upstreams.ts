import {
  type Response as CanonicalResponse,
  type PushTransformer,
  parseWireJson,
  type SseMessage,
  type StreamEvent,
  type Warning,
} from "@interlingua/core-types";
import type { GatewayError } from "@interlingua/errors";
import type { Agent } from "undici";
import type { CachePlanOutcome } from "../cache/apply-cache-plan.ts";
import type { CachePlanner } from "../cache/cache-planner.ts";
import { strictRefusal } from "../contract/client-contract.ts";
import type { ModelRouter, RouteCandidate } from "../routing/model-router.ts";
import { startsLikeSse } from "../stream/well-formed-sse.ts";
import {
  type AttemptRecord,
  type ChannelTry,
  callChannel,
  sendUpstream,
  sendUpstreamText,
  type TryContext,
} from "../upstream/call-channel.ts";
import { linkedAbort } from "../upstream/linked-abort.ts";
import {
  type PreparedUpstreamRequest,
  prepareUpstreamRequest,
} from "../upstream/prepare-upstream-request.ts";
import { PROTOCOLS } from "../upstream/protocols.ts";
import { readFirstChunk, type StartedUpstreamBody } from "../upstream/read-first-chunk.ts";
import { failureFromError, type UpstreamFailure } from "../upstream/upstream-failure.ts";
import type { ClientCall, ParsedGeneration } from "./generation-request.ts";
import { thrownRefusal } from "./thrown-refusal.ts";

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
  | (CommittedBase & {
      kind: "stream";
      body: StartedUpstreamBody;
      /** The body's decoder when it is not its channel protocol's (several calls merged). */
      decoder?: () => PushTransformer<SseMessage, StreamEvent>;
    });

/** An upstream reply the gateway has committed to: from here on there is no fallback. */
export type Committed = AttemptReply & {
  /**
   * Token-hours of every Gemini cache created for this request, on any attempt: storage the
   * upstream bills once it exists, whether or not that attempt's call then succeeded.
   */
  cacheStorageTokenHours: number;
};

type AttemptResult = { ok: true; value: AttemptReply } | { ok: false; failure: UpstreamFailure };

/** A committed reply with the cache plan its channel's try used. */
type Planned = AttemptReply & { cachePlan: CachePlanOutcome | undefined };

/**
 * Tries the planned channels in order until one answers (`callChannel`). A channel is given up
 * for the next only before anything has reached the client: on a network error, a timeout, a
 * retryable status, a malformed 2xx body, or a stream that fails before its first chunk.
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
  let cacheStorageTokenHours = 0;
  // The channel being tried: its warnings (kept across a stale-cache retry) and last cache plan.
  let warnings: Warning[] = [];
  let plan: CachePlanOutcome | undefined;
  /** Plan, render and send for one channel. */
  const attempt = async (
    candidate: RouteCandidate,
    context: TryContext,
  ): Promise<ChannelTry<Planned>> => {
    // The cache analysis's own warnings (a boundary ignored or dropped) go with every attempt's.
    if (!context.again) warnings = [...request.cache.warnings, ...(request.notes ?? [])];
    plan = undefined;
    const onWarning = (w: Warning) => warnings.push(w);
    // Strict: a drop the cache analysis already knows of refuses before any cache is planned.
    const early = request.strict === true ? strictRefusal(warnings) : undefined;
    if (early !== undefined) return { kind: "refused", error: early };
    plan = await planner?.plan(candidate, onWarning);
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
    const cachePlan = plan;
    const result = await context.traced(() =>
      attemptOne(agent, request, candidate, prepared, warnings),
    );
    if (!result.ok) return { kind: "failed", failure: result.failure };
    const value = { ...result.value, cachePlan };
    return { kind: "ok", value, held: value.kind === "stream" ? value.body.rest : undefined };
  };
  const result = await callChannel<Planned>(
    {
      router,
      candidates,
      attempts,
      signal: request.signal,
      source: String(request.token.id),
    },
    {
      attempt,
      // A cache the registry still lists but the upstream no longer has: the same channel once
      // more with a fresh plan (a new cache, or an ordinary request).
      staleCache: async (failure) => (await planner?.staleCache(plan, failure)) === true,
    },
  );
  if (result.ok) return { ok: true, committed: { ...result.value, cacheStorageTokenHours } };
  return {
    ok: false,
    error: result.error,
    cacheStorageTokenHours,
    ...(result.clientGone ? { clientGone: true as const } : {}),
  };
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
