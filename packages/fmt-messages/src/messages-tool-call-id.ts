/** Anthropic accepts tool_use ids matching this, and rejects the request otherwise. */
export const MESSAGES_TOOL_CALL_ID = /^[a-zA-Z0-9_-]+$/;

/** FNV-1a, 32 bits, in base 36: short, stable, and dependency-free. */
function shortHash(value: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/**
 * A tool-call id Anthropic accepts. Valid ids pass unchanged; others have each invalid character
 * replaced by `_` and a hash of the ORIGINAL id appended, so `a.b` and `a:b` never collide. The
 * same function rewrites `tool_use.id` and `tool_result.tool_use_id`, so pairs stay matched.
 */
export function toMessagesToolCallId(id: string): string {
  if (MESSAGES_TOOL_CALL_ID.test(id)) return id;
  return `${id.replace(/[^a-zA-Z0-9_-]/g, "_")}_${shortHash(id)}`;
}
