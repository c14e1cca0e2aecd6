import type { Citation, TextPart, Warning } from "@interlingua/core-types";

/** Anthropic's web-search citation, as a messages result carries it on a text block. */
export interface MessagesWebSearchCitation {
  type: "web_search_result_location";
  url: string;
  title: string | null;
  cited_text: string;
  encrypted_index: string;
}

export type MessagesCitedTextBlock = {
  type: "text";
  text: string;
  citations?: MessagesWebSearchCitation[];
};

type Warn = (type: Warning["type"], feature: string, message: string) => void;

/**
 * A canonical text part with citations -> Anthropic text blocks. Anthropic cites whole blocks, so a
 * citation with indices splits the text at its bounds: each block carries the citations that cover
 * it, and the blocks joined give the part's text back unchanged. `encrypted_index` is Anthropic's
 * own token and is sent empty; a citation without `citedText` cites the span it covers (mapped).
 */
export function renderCitedText(
  part: TextPart,
  feature: string,
  warn: Warn,
): MessagesCitedTextBlock[] {
  const citations = part.citations ?? [];
  if (citations.length === 0) return [{ type: "text", text: part.text }];
  const length = part.text.length;
  const span = (c: Citation): [number, number] => {
    const start = Math.min(c.startIndex ?? 0, length);
    return [start, Math.max(start, Math.min(c.endIndex ?? length, length))];
  };
  const bounds = new Set<number>([0, length]);
  for (const c of citations) for (const b of span(c)) bounds.add(b);
  const cuts = [...bounds].sort((a, b) => a - b);
  const blocks: MessagesCitedTextBlock[] = [];
  const mapped = new Set<number>();
  for (let i = 0; i + 1 < cuts.length; i++) {
    const from = cuts[i] as number;
    const to = cuts[i + 1] as number;
    const text = part.text.slice(from, to);
    const cited: MessagesWebSearchCitation[] = [];
    citations.forEach((c, k) => {
      const [start, end] = span(c);
      if (start > from || end < to) return;
      if (c.citedText === undefined) mapped.add(k);
      cited.push({
        type: "web_search_result_location",
        url: c.url,
        title: c.title ?? null,
        cited_text: c.citedText ?? text,
        encrypted_index: "",
      });
    });
    blocks.push(
      cited.length > 0 ? { type: "text", text, citations: cited } : { type: "text", text },
    );
  }
  for (const k of mapped) {
    warn(
      "mapped",
      `${feature}.citations[${k}]`,
      "Anthropic citations need cited_text; the cited span of the answer was sent",
    );
  }
  // A zero-length citation covers no block: say so rather than lose it.
  citations.forEach((c, k) => {
    const [start, end] = span(c);
    if (start === end && length > 0) {
      warn("dropped", `${feature}.citations[${k}]`, "an empty citation span has no text block");
    }
  });
  return blocks;
}

/**
 * Anthropic text-block citations -> canonical. `web_search_result_location` (url, title,
 * cited_text) covers the whole block, so it has no indices; document locations (char, page, block)
 * name no URL and are skipped. `encrypted_index` is Anthropic's own and is not kept.
 */
export function parseMessagesCitations(
  citations: readonly unknown[] | null | undefined,
): Citation[] {
  const out: Citation[] = [];
  for (const raw of citations ?? []) {
    if (typeof raw !== "object" || raw === null) continue;
    const c = raw as Record<string, unknown>;
    if (c.type !== "web_search_result_location" || typeof c.url !== "string") continue;
    const citation: Citation = { type: "url", url: c.url };
    if (typeof c.title === "string") citation.title = c.title;
    if (typeof c.cited_text === "string") citation.citedText = c.cited_text;
    out.push(citation);
  }
  return out;
}
