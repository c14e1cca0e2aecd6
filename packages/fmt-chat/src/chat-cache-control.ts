import type { CacheControl } from "@interlingua/core-types";
import type { ChatCacheControl } from "./chat-api.js";

/** The wire and canonical shapes coincide; copying keeps an absent ttl absent (5m is implied). */
export function parseChatCacheControl(wire: ChatCacheControl): CacheControl {
  return wire.ttl === undefined ? { type: "ephemeral" } : { type: "ephemeral", ttl: wire.ttl };
}

export function renderChatCacheControl(cache: CacheControl): ChatCacheControl {
  return cache.ttl === undefined ? { type: "ephemeral" } : { type: "ephemeral", ttl: cache.ttl };
}
