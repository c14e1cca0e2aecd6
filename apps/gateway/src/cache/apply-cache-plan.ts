import {
  type CacheAnalysis,
  cacheKey,
  estimatePrefixTokens,
  minCacheTokens,
  planAnthropic,
  planGemini,
  planOpenAI,
  stripCacheControl,
} from "@interlingua/cache-control";
import { findModel, type Request, type Warning } from "@interlingua/core-types";
import type { Agent } from "undici";
import type { RequestLog } from "../log/request-log.ts";
import type { RouteCandidate } from "../routing/model-router.ts";
import type { CacheRegistry } from "./cache-registry.ts";
import { createGeminiCache } from "./create-gemini-cache.ts";

export interface CacheContext {
  readonly agent: Agent;
  readonly registry: CacheRegistry;
  readonly log: RequestLog;
  readonly now: () => number;
}

/** What a candidate channel is sent, once SPEC.md's cache rules are applied. */
export interface CachePlanOutcome {
  /** Render this instead of forwarding the client's bytes (its `cache_control` must not go out). */
  readonly canonical: Request;
  /** How the cache was used, for the log. */
  readonly mode:
    | "ordinary"
    | "openai-key"
    | "anthropic-breakpoint"
    | "gemini-reused"
    | "gemini-created";
  /** Token-hours of a Gemini cache created for this call: its one-time storage charge (rule 10). */
  readonly storageTokenHours: number;
  readonly reason?: string;
}

const TTL_HOURS = { "5m": 5 / 60, "1h": 1 } as const;

/**
 * Rules 2-8 for one candidate channel: a cached request becomes a prompt_cache_key (OpenAI), one
 * breakpoint (Anthropic), or a cachedContents resource plus the live suffix (Gemini, created on
 * first use in the same request and reused while its key matches and it lives). Anything that
 * stands in the way (model without caching, prefix below the upstream's minimum, creation
 * failure) runs the request as an ordinary one; caching never fails a request.
 * Returns undefined when the request has nothing to do with caching.
 */
export async function applyCachePlan(
  context: CacheContext,
  analysis: CacheAnalysis,
  canonical: Request,
  userId: string,
  gatewayModel: string,
  candidate: RouteCandidate,
  onWarning: (warning: Warning) => void,
): Promise<CachePlanOutcome | undefined> {
  if (analysis.mode === "none" || analysis.mode === "explicit") return undefined;
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
  const request = { ...canonical, model: upstreamModel };
  const key = cacheKey({
    user: userId,
    channel: channel.name,
    model: upstreamModel,
    request,
    analysis,
  });
  switch (channel.protocol) {
    case "openai":
      return { canonical: planOpenAI(request, key), mode: "openai-key", storageTokenHours: 0 };
    case "anthropic":
      return {
        canonical: planAnthropic(request, analysis, { onWarning }),
        mode: "anthropic-breakpoint",
        storageTokenHours: 0,
      };
    case "gemini": {
      if (estimatePrefixTokens(request, analysis) < minCacheTokens("gemini", upstreamModel)) {
        return ordinary("prefix below the upstream's minimum cache size");
      }
      const plan = planGemini(request, analysis, upstreamModel, { onWarning });
      const known = await context.registry.get(key);
      if (known !== undefined) {
        return { canonical: plan.suffix(known.name), mode: "gemini-reused", storageTokenHours: 0 };
      }
      const created = await createGeminiCache(context.agent, channel, plan.create, context.now());
      if ("failed" in created) {
        context.log.info(
          { channel: channel.name, reason: created.failed },
          "cache creation failed",
        );
        return ordinary(`cache creation failed: ${created.failed}`);
      }
      await context.registry.set(key, { name: created.name, expiresAt: created.expiresAt });
      return {
        canonical: plan.suffix(created.name),
        mode: "gemini-created",
        storageTokenHours: created.tokens * TTL_HOURS[analysis.ttl],
      };
    }
  }
}
