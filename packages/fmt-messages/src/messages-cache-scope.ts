import type { Request, TextPart } from "@interlingua/core-types";

/**
 * The system text that scopes a cached prefix: inert to the model, a few tokens long. It names
 * the scope only (an opaque id), never the user.
 */
export const cacheScopeText = (scope: string): string => `[cache scope ${scope}]`;

/**
 * The request with the scope marker as its first system block. Anthropic matches caches on the
 * exact prefix (tools, then system, then messages) of everyone on one API key; a marker ahead of
 * the system text and every message makes that prefix differ per scope while tools, which carry
 * no per-request text, stay as they are. Never mutates.
 */
export function withCacheScope(request: Request, scope: string): Request {
  const marker: TextPart = { type: "text", text: cacheScopeText(scope) };
  return { ...request, system: [marker, ...request.system] };
}
