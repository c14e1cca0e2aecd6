import type { Citation } from "@interlingua/core-types";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= 0;

/**
 * `url_citation` annotations -> canonical citations (same UTF-16 indices); other kinds, and
 * url_citations without a URL, are skipped. Read by hand, without the response schema, so a
 * stream decoder can use it without carrying that schema.
 */
export function parseChatAnnotations(
  annotations: readonly unknown[] | null | undefined,
): Citation[] {
  const out: Citation[] = [];
  for (const annotation of annotations ?? []) {
    if (!isObject(annotation) || annotation["type"] !== "url_citation") continue;
    const u = annotation["url_citation"];
    if (!isObject(u) || typeof u["url"] !== "string") continue;
    const citation: Citation = { type: "url", url: u["url"] };
    if (typeof u["title"] === "string") citation.title = u["title"];
    if (isCount(u["start_index"])) citation.startIndex = u["start_index"];
    if (isCount(u["end_index"])) citation.endIndex = u["end_index"];
    out.push(citation);
  }
  return out;
}
