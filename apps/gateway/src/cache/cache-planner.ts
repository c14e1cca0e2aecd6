import type { CacheAnalysis } from "@interlingua/cache-control";
import type { Request, Warning } from "@interlingua/core-types";
import type { Agent } from "undici";
import type { RequestLog } from "../log/request-log.ts";
import type { RouteCandidate } from "../routing/model-router.ts";
import type { UpstreamFailure } from "../upstream/upstream-failure.ts";
import { applyCachePlan, type CachePlanOutcome } from "./apply-cache-plan.ts";
import type { CacheRegistry } from "./cache-registry.ts";

/** The cache side of one request's attempts, one call per candidate channel. */
export interface CachePlanner {
  plan(candidate: RouteCandidate, onWarning: (warning: Warning) => void): Promise<CachePlanOutcome>;
  /**
   * Whether the upstream refused the attempt because a cache the registry still lists is gone
   * (expired early, deleted): Gemini answers 403 or 404 for such a `cachedContent`. The entry is
   * then forgotten and the same channel is tried again with a fresh plan (docs/api-reference.md rule 7: the
   * cache being unavailable never fails a request, and it is no fault of the channel).
   */
  staleCache(outcome: CachePlanOutcome | undefined, failure: UpstreamFailure): Promise<boolean>;
}

/** What planning reads of the gateway. */
export interface CacheServices {
  readonly agent: Agent;
  readonly caches: CacheRegistry;
  readonly now: () => number;
}

/** What planning reads of a client request. */
export interface CacheInput {
  readonly cache: CacheAnalysis;
  readonly canonical: Request;
  readonly token: { readonly userId: string };
  readonly log: RequestLog;
}

const GONE_STATUSES = new Set([403, 404]);

/** The planner of one request, or undefined when it has no cache boundary to plan. */
export function cachePlanner(
  services: CacheServices,
  request: CacheInput,
  gatewayModel: string,
): CachePlanner | undefined {
  const analysis = request.cache;
  if (analysis.mode === "none" || analysis.mode === "explicit") return undefined;
  const context = {
    agent: services.agent,
    registry: services.caches,
    log: request.log,
    now: services.now,
  };
  return {
    plan: (candidate, onWarning) =>
      applyCachePlan(
        context,
        analysis,
        request.canonical,
        request.token.userId,
        gatewayModel,
        candidate,
        onWarning,
      ),
    async staleCache(outcome, failure) {
      if (outcome?.mode !== "gemini-reused" || outcome.entry === undefined) return false;
      if (failure.kind !== "status" || !GONE_STATUSES.has(failure.status)) return false;
      await services.caches.delete(outcome.entry.key, outcome.entry.name);
      request.log.info(
        { cache: outcome.entry.name, status: failure.status },
        "cache gone upstream; retrying with a fresh plan",
      );
      return true;
    },
  };
}
