import type { NativeCachedContentCreate } from "@interlingua/cache-control";
import type { Agent } from "undici";
import type { Channel } from "../routing/channel.ts";
import { requestChannel } from "../upstream/channel-request.ts";
import type { CacheCreation, CacheEntry } from "./cache-registry.ts";

export interface CreatedCache {
  readonly entry: CacheEntry;
  /** Tokens the upstream counted into the cache (its storage is billed on them). */
  readonly tokens: number;
}

const CREATE_TIMEOUT_MS = 10_000;

/**
 * `POST {base}/v1beta/cachedContents`. Any failure (refused as too small, unsupported model,
 * network) comes back as `{failed}`: the caller then runs the request without a cache (rule 7).
 */
export async function createGeminiCache(
  agent: Agent,
  channel: Channel,
  body: NativeCachedContentCreate,
  now: number,
): Promise<CacheCreation<CreatedCache>> {
  try {
    const response = await requestChannel(agent, channel, {
      path: "/v1beta/cachedContents",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      headersTimeoutMs: CREATE_TIMEOUT_MS,
      bodyTimeoutMs: CREATE_TIMEOUT_MS,
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) return { failed: `status ${response.statusCode}` };
    const json = JSON.parse(text) as {
      name?: unknown;
      expireTime?: unknown;
      usageMetadata?: { totalTokenCount?: unknown };
    };
    if (typeof json.name !== "string") return { failed: "no cache name in the reply" };
    const ttlSeconds = Number.parseInt(body.ttl, 10);
    const expireTime =
      typeof json.expireTime === "string" ? Date.parse(json.expireTime) : Number.NaN;
    return {
      entry: {
        name: json.name,
        expiresAt: Number.isFinite(expireTime) ? expireTime : now + ttlSeconds * 1000,
      },
      tokens: Number(json.usageMetadata?.totalTokenCount ?? 0) || 0,
    };
  } catch (error) {
    return { failed: error instanceof Error ? error.message : String(error) };
  }
}
