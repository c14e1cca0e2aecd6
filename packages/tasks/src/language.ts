/** docs/api-reference.md "Events" item 4: the languages `error.message` can be rendered in. */
export const LANGUAGES = ["en", "zh", "ja", "ko", "ru", "fr", "de", "id", "pt", "es"] as const;
export type Language = (typeof LANGUAGES)[number];

const KNOWN: ReadonlySet<string> = new Set(LANGUAGES);

/**
 * A caller's `language` value -> one of ours, case-insensitive with surrounding spaces trimmed.
 * Region tags (`zh-CN`), other languages and non-strings give undefined: the API reference says an unsupported
 * value never fails a submission, the original message is kept instead.
 */
export function normalizeLanguage(raw: unknown): Language | undefined {
  if (typeof raw !== "string") return undefined;
  const tag = raw.trim().toLowerCase();
  return KNOWN.has(tag) ? (tag as Language) : undefined;
}
