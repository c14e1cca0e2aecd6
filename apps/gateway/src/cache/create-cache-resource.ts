import type { CacheResourcePlan } from "@interlingua/core-types";
import type { Agent } from "undici";
import type { Channel } from "../routing/channel.ts";
import { requestChannel } from "../upstream/call-channel.ts";
import { readCappedBytes } from "../upstream/read-capped.ts";
import type { CacheCreation, CacheEntry } from "./cache-registry.ts";

export interface CreatedCache {
  readonly entry: CacheEntry;
  /** Tokens the upstream counted into the cache (its storage is billed on them). */
  readonly tokens: number;
}

const CREATE_TIMEOUT_MS = 10_000;
/** A creation reply is a small JSON object; anything longer is not read. */
const MAX_REPLY_BYTES = 64 * 1024;

/**
 * Makes the cache resource a protocol's plan names (Gemini: `POST {base}/v1beta/cachedContents`).
 * Any failure (refused as too small, an unsupported model, the network, a reply that names no
 * resource) comes back as `{failed}`: the caller then runs the request without a cache (rule 7).
 */
export async function createCacheResource(
  agent: Agent,
  channel: Channel,
  plan: CacheResourcePlan,
  now: number,
): Promise<CacheCreation<CreatedCache>> {
  try {
    const response = await requestChannel(agent, channel, {
      path: plan.create.path,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(plan.create.body),
      headersTimeoutMs: CREATE_TIMEOUT_MS,
      bodyTimeoutMs: CREATE_TIMEOUT_MS,
    });
    const bytes = await readCappedBytes(response.body, MAX_REPLY_BYTES);
    if (response.statusCode !== 200) return { failed: `status ${response.statusCode}` };
    if (bytes === undefined) return { failed: `reply larger than ${MAX_REPLY_BYTES} bytes` };
    const created = plan.created(JSON.parse(bytes.toString("utf8")));
    if (created === undefined) return { failed: "no cache name in the reply" };
    return {
      entry: { name: created.name, expiresAt: created.expiresAt ?? now + plan.ttlSeconds * 1000 },
      tokens: created.tokens,
    };
  } catch (error) {
    return { failed: error instanceof Error ? error.message : String(error) };
  }
}
