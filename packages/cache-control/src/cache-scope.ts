import { canonicalJson } from "./canonical-json.js";
import { sha256Hex } from "./sha256.js";

export interface CacheScopeInput {
  /** The API user (account) the caches belong to. */
  user: string;
  /** The channel (upstream account) that holds them. */
  channel: string;
}

/** Bumped whenever the serialisation changes: every scope, and so every scoped cache, changes. */
const scopeVersion = 1;

/**
 * 64 bits keep the users of one channel apart while costing only a few tokens in a prompt; the
 * id must not name the user in clear, since it is sent upstream.
 */
const SCOPE_HEX_CHARS = 16;

/**
 * An opaque id of one (user, channel): the same for every request they send, so a provider that
 * caches by prefix alone (Anthropic) can be given a per-user prefix that still hits (rule 4).
 * Unlike `cacheKey` it ignores the prompt, so a prefix that grows turn by turn keeps its scope.
 */
export function cacheScope(input: CacheScopeInput): string {
  const digest = sha256Hex(
    canonicalJson({ v: scopeVersion, user: input.user, channel: input.channel }),
  );
  return digest.slice(0, SCOPE_HEX_CHARS);
}
