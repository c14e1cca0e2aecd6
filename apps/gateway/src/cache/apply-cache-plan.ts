import {
  CACHE_TTL_HOURS,
  type CachedAnalysis,
  cacheKey,
  estimatePrefixTokens,
  minCacheTokens,
  type OrdinaryCache,
  planAnthropic,
  planGemini,
  planOpenAI,
  planOpenAIResponses,
  stripCacheControl,
} from "@interlingua/cache-control";
import type { Request, UpstreamProtocol, Warning } from "@interlingua/core-types";
import type { Agent } from "undici";
import { findModel } from "../catalogue/model-catalogue.ts";
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

/** What a candidate channel is sent, once docs/api-reference.md's cache rules are applied. */
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
  /** The registry entry a Gemini plan sends, so a cache gone upstream can be forgotten (rule 7). */
  readonly entry?: { readonly key: string; readonly name: string };
  readonly reason?: string;
}

/** Everything one candidate's plan is made from. */
interface PlanInput {
  readonly context: CacheContext;
  readonly analysis: CachedAnalysis;
  /** The client's request with the channel's upstream model. */
  readonly request: Request;
  readonly key: string;
  readonly candidate: RouteCandidate;
  readonly onWarning: (warning: Warning) => void;
  readonly ordinary: (reason: string) => CachePlanOutcome;
}

/** Gemini: a cachedContents resource (made once per key, shared by concurrent first requests). */
async function planGeminiCache(input: PlanInput): Promise<CachePlanOutcome> {
  const { context, analysis, request, key, candidate, onWarning, ordinary } = input;
  const { channel, upstreamModel } = candidate;
  if (estimatePrefixTokens(request, analysis) < minCacheTokens("gemini", upstreamModel)) {
    return ordinary("prefix below the upstream's minimum cache size");
  }
  const plan = planGemini(request, analysis, upstreamModel, { onWarning });
  const got = await context.registry.acquire(key, () =>
    createGeminiCache(context.agent, channel, plan.create, context.now()),
  );
  if (got.kind === "failed") {
    context.log.info({ channel: channel.name, reason: got.reason }, "cache creation failed");
    return ordinary(`cache creation failed: ${got.reason}`);
  }
  const entry = { key, name: got.entry.name };
  if (got.kind === "reused") {
    return {
      canonical: plan.suffix(entry.name),
      mode: "gemini-reused",
      storageTokenHours: 0,
      entry,
    };
  }
  return {
    canonical: plan.suffix(entry.name),
    mode: "gemini-created",
    storageTokenHours: got.created.tokens * CACHE_TTL_HOURS[analysis.ttl],
    entry,
  };
}

/** Per upstream protocol: what a cached request becomes (docs/api-reference.md rules 3 and 4). */
const PLANS: Record<UpstreamProtocol, (input: PlanInput) => Promise<CachePlanOutcome>> = {
  // OpenAI caches prefixes by itself; the key only steers requests to the same cache.
  openai: async ({ request, key }) => ({
    canonical: planOpenAI(request, key),
    mode: "openai-key",
    storageTokenHours: 0,
  }),
  anthropic: async ({ request, analysis, onWarning }) => ({
    canonical: planAnthropic(request, analysis, { onWarning }),
    mode: "anthropic-breakpoint",
    storageTokenHours: 0,
  }),
  gemini: planGeminiCache,
  // The Responses API takes the same key, as a field of its own body.
  "openai-responses": async ({ request, key }) => ({
    canonical: planOpenAIResponses(request, key),
    mode: "openai-key",
    storageTokenHours: 0,
  }),
};

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
  return PLANS[channel.protocol]({
    context,
    analysis,
    request,
    key,
    candidate,
    onWarning,
    ordinary,
  });
}
