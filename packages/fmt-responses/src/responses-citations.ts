import type { Citation } from "@interlingua/core-types";

/**
 * output_text `annotations` -> canonical citations: `url_citation` ones (flat `url`, `title`,
 * `start_index`, `end_index`, character offsets into the part's text); file and container
 * citations name no URL and are skipped.
 */
export function parseUrlCitations(annotations: unknown): Citation[] {
  const out: Citation[] = [];
  if (!Array.isArray(annotations)) return out;
  for (const a of annotations) {
    if (typeof a !== "object" || a === null) continue;
    const r = a as Record<string, unknown>;
    if (r["type"] !== "url_citation" || typeof r["url"] !== "string") continue;
    const citation: Citation = { type: "url", url: r["url"] };
    if (typeof r["title"] === "string") citation.title = r["title"];
    const start = r["start_index"];
    const end = r["end_index"];
    if (typeof start === "number" && Number.isInteger(start) && start >= 0) {
      citation.startIndex = start;
    }
    if (typeof end === "number" && Number.isInteger(end) && end >= 0) citation.endIndex = end;
    out.push(citation);
  }
  return out;
}

/** A canonical citation as an output_text `url_citation` annotation over `[start, end)`. */
export const urlCitationAnnotation = (c: Citation, start: number, end: number) => ({
  type: "url_citation" as const,
  start_index: start,
  end_index: end,
  url: c.url,
  title: c.title ?? "",
});
