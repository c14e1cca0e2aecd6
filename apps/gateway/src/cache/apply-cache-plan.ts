import {
  CACHE_TTL_HOURS,
  type CachedAnalysis,
  cacheKey,
  cacheScope,
  estimatePrefixTokens,
  minCacheTokens,
  type OrdinaryCache,
} from "@interlingua/cache-control";
import {
  type CachePlan,
  type Request,
  stripCacheControl,
  type Warning,
} from "@interlingua/core-types";
import type { Agent } from "undici";
import { findModel } from "../catalogue/model-catalogue.ts";
import type { RequestLog } from "../log/request-log.ts";
import type { RouteCandidate } from "../routing/model-router.ts";
import { PROTOCOLS } from "../upstream/protocols.ts";
import type { CacheRegistry } from "./cache-registry.ts";
import { createCacheResource } from "./create-cache-resource.ts";

export interface CacheContext {
  readonly agent: Agent;
  readonly registry: CacheRegistry;
  readonly log: RequestLog;
  readonly now: () => number;
}

/** What a candidate channel is sent, once docs/api-reference.md's cache rules are applied. */
export interface CachePlanOutcome {
  /** Render this instead of forwarding the client's bytes (its `cache_control` must not go out). */
  readonly canonical: Request;
  /**
   * How the cache was used, for the log: "ordinary", the protocol's inline mode
   * ("openai-key", "anthropic-breakpoint") or its resource mode made or reused ("gemini-created").
   */
  readonly mode: string;
  /** Token-hours of a Gemini cache created for this call: its one-time storage charge (rule 10). */
  readonly storageTokenHours: number;
  /** The registry entry a Gemini plan sends, so a cache gone upstream can be forgotten (rule 7). */
  readonly entry?: { readonly key: string; readonly name: string };
  readonly reason?: string;
}

/**
 * The protocol's plan (its format package's `cachePlan`), and for a resource the one shared
 * creation per key (`registry.acquire`): made once, reused by concurrent and later requests.
 */
async function planCache(
  context: CacheContext,
  plan: CachePlan,
  key: string,
  candidate: RouteCandidate,
  ttl: CachedAnalysis["ttl"],
  ordinary: (reason: string) => CachePlanOutcome,
): Promise<CachePlanOutcome> {
  if (plan.kind === "inline") {
    return { canonical: plan.request, mode: plan.mode, storageTokenHours: 0 };
  }
  const { channel } = candidate;
  const got = await context.registry.acquire(key, () =>
    createCacheResource(context.agent, channel, plan, context.now()),
  );
  if (got.kind === "failed") {
    context.log.info({ channel: channel.name, reason: got.reason }, "cache creation failed");
    return ordinary(`cache creation failed: ${got.reason}`);
  }
  const entry = { key, name: got.entry.name };
  if (got.kind === "reused") {
    return {
      canonical: plan.suffix(entry.name),
      mode: `${plan.mode}-reused`,
      storageTokenHours: 0,
      entry,
    };
  }
  return {
    canonical: plan.suffix(entry.name),
    mode: `${plan.mode}-created`,
    storageTokenHours: got.created.tokens * CACHE_TTL_HOURS[ttl],
    entry,
  };
}

/**
 * Rules 2-8 for one candidate channel. Anything in a cache's way (no caching on the model or
 * channel, a prefix below the minimum, a creation failure) runs the request as an ordinary one.
 */
export async function applyCachePlan(
  context: CacheContext,
  analysis: OrdinaryCache | CachedAnalysis,
  canonical: Request,
  userId: string,
  gatewayModel: string,
  candidate: RouteCandidate,
  onWarning: (warning: Warning) => void,
): Promise<CachePlanOutcome> {
  const ordinary = (reason: string): CachePlanOutcome => ({
    canonical: { ...stripCacheControl(canonical), model: candidate.upstreamModel },
    mode: "ordinary",
    storageTokenHours: 0,
    reason,
  });
  if (analysis.mode === "ordinary") return ordinary(analysis.reason);
  if (findModel(gatewayModel)?.capabilities.caching === false) {
    return ordinary("model does not support caching");
  }
  const { channel, upstreamModel } = candidate;
  if (!channel.caching) return ordinary("caching is off for this channel");
  const request = { ...canonical, model: upstreamModel };
  const key = cacheKey({
    user: userId,
    channel: channel.name,
    model: upstreamModel,
    request,
    analysis,
  });
  // The plan's warnings count only if the plan is used.
  const warnings: Warning[] = [];
  const plan = PROTOCOLS[channel.protocol].cachePlan({
    request,
    boundary: analysis.boundary,
    prefixMessages: analysis.prefixMessages,
    ttl: analysis.ttl,
    key,
    // Anthropic caches per API key on the prefix alone; the plan marks the prefix with this.
    scope: cacheScope({ user: userId, channel: channel.name }),
    onWarning: (warning) => warnings.push(warning),
  });
  // A resource is worth making only for a prefix the upstream will cache at all.
  if (
    plan.kind === "resource" &&
    estimatePrefixTokens(request, analysis) < minCacheTokens(channel.protocol, upstreamModel)
  ) {
    return ordinary("prefix below the upstream's minimum cache size");
  }
  for (const warning of warnings) onWarning(warning);
  return planCache(context, plan, key, candidate, analysis.ttl, ordinary);
}
