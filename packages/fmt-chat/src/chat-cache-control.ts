import type { CacheControl, WirePath } from "@interlingua/core-types";
import type { ChatCacheControl } from "./chat-api.js";

/** The wire and canonical shapes coincide; copying keeps an absent ttl absent (5m is implied). */
export function parseChatCacheControl(wire: ChatCacheControl): CacheControl {
  return wire.ttl === undefined ? { type: "ephemeral" } : { type: "ephemeral", ttl: wire.ttl };
}

export function renderChatCacheControl(cache: CacheControl): ChatCacheControl {
  return cache.ttl === undefined ? { type: "ephemeral" } : { type: "ephemeral", ttl: cache.ttl };
}

/**
 * Where a chat client puts `cache_control`: OpenAI takes none, so on a body forwarded as sent
 * these are the gateway's hint only (docs/api-reference.md, caching rule 8). The boundary
 * positions, plus the ones a client copies from Anthropic (tools, the request itself); a tool
 * schema property that happens to be called `cache_control` is not among them.
 */
export const CHAT_HINT_CACHE_CONTROL_AT: readonly WirePath[] = [
  ["cache_control"],
  ["messages", "*", "cache_control"],
  ["messages", "*", "content", "*", "cache_control"],
  ["tools", "*", "cache_control"],
  ["tools", "*", "function", "cache_control"],
];
