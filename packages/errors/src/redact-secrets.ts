/**
 * Patterns of credentials that upstream messages are known to quote back ("Incorrect API key
 * provided: sk-proj-abc***xyz", URLs with `?key=AIza...`). An upstream message reaching a client
 * must not carry the gateway's own upstream key, masked or not.
 */
const secretPatterns: readonly (readonly [RegExp, string])[] = [
  // OpenAI and Anthropic keys (sk-..., sk-proj-..., sk-ant-api03-...), including masked ones.
  [/\bsk-[A-Za-z0-9_*-]{4,}/g, "[redacted]"],
  // Google API keys.
  [/\bAIza[A-Za-z0-9_*-]{10,}/g, "[redacted]"],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/*-]+=*/gi, "$1 [redacted]"],
  // Query parameters (`?key=...`) and quoted headers; a bare "key:" is too common in schema
  // messages to redact.
  [/\b(key|api[_-]?key|access[_-]?token)=[^\s&"',;]+/gi, "$1=[redacted]"],
  [/\b(api[_-]?key|x-goog-api-key|x-api-key|authorization)(:\s*)[^\s"',;]+/gi, "$1$2[redacted]"],
  // Credentials in a URL's user info (`postgres://user:password@host`, `https://u:p@host`).
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"']+:[^\s/?#@"']*@/gi, "$1[redacted]@"],
];

export const redactSecrets = (text: string): string =>
  secretPatterns.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
