import type { CacheTtl } from "./cache-control.js";
import type { Request } from "./request.js";
import { stripCacheControl } from "./strip-cache-control.js";
import type { Warning } from "./warning.js";

/**
 * Where a client's cache boundary sits in the canonical request. `content` is set when the
 * boundary is on one block inside a tool result (chat tool messages carry it there). A `system`
 * boundary exists only for chat, whose system messages are ordinary messages that happen to be
 * hoisted; it caches the system text alone (no message is in the prefix).
 */
export type CacheBoundary =
  | { area: "messages"; message: number; part: number; content?: number }
  | { area: "system"; part: number };

/** A request whose prompt prefix is to be cached, as a protocol's `cachePlan` takes it. */
export interface CachePlanInput {
  /** The client's request, its model the channel's upstream model. */
  readonly request: Request;
  readonly boundary: CacheBoundary;
  /** Messages in the cached prefix: `messages[0 .. prefixMessages - 1]` (0: the system alone). */
  readonly prefixMessages: number;
  readonly ttl: CacheTtl;
  /** A stable digest of the prefix (user, channel, model, content): one cache per key. */
  readonly key: string;
  /**
   * An opaque id of the (API user, channel) the cache belongs to, the same for every prefix they
   * send: a provider that caches by prefix alone (Anthropic) is made to tell users apart by it.
   */
  readonly scope: string;
  readonly onWarning: (warning: Warning) => void;
}

/** A cache resource the provider makes first (Gemini's cachedContents), then names in requests. */
export interface CacheResourcePlan {
  readonly kind: "resource";
  /** The protocol's name for the plan, for logs: `<mode>-created` or `<mode>-reused`. */
  readonly mode: string;
  /** POST `path` (under the channel's base URL) with `body` makes the resource. */
  readonly create: { readonly path: string; readonly body: Record<string, unknown> };
  /** How long the resource lives unless its reply says otherwise. */
  readonly ttlSeconds: number;
  /** The resource's name, expiry (Unix ms) and counted tokens from the provider's reply to `create`. */
  created(reply: unknown): CreatedCacheResource | undefined;
  /** The request to send once the resource exists, given its name. */
  suffix(name: string): Request;
}

export interface CreatedCacheResource {
  readonly name: string;
  readonly expiresAt?: number;
  /** Tokens the provider stored (its storage is billed on them). */
  readonly tokens: number;
}

/**
 * What a provider is sent for a request with a cached prefix: the request itself with the
 * provider's own cache markers (`inline`: a routing key, a breakpoint), or a resource made first.
 */
export type CachePlan =
  | { readonly kind: "inline"; readonly mode: string; readonly request: Request }
  | CacheResourcePlan;

/**
 * The `prompt_cache_key` the OpenAI protocols send for a cache key: the gateway's own prefix (so
 * they are recognisable in upstream logs) and 32 hex digits, plenty to keep prefixes apart.
 */
export const promptCacheKey = (key: string): string => `il-${key.slice(0, 32)}`;

/**
 * The OpenAI protocols' cached request: they cache prefixes by themselves, so the boundaries are
 * removed and `prompt_cache_key` goes in `extras[format]`, which that format's renderer writes
 * back verbatim, to route requests with the same prefix to the same cache. Never mutates.
 */
export function withPromptCacheKey(
  request: Request,
  key: string,
  format: "chat" | "responses",
): Request {
  const out = stripCacheControl(request);
  return {
    ...out,
    extras: {
      ...out.extras,
      [format]: { ...out.extras?.[format], prompt_cache_key: promptCacheKey(key) },
    },
  };
}
