import type { Citation, TextPart, Warning } from "@interlingua/core-types";
import { zLooseObject } from "@interlingua/core-types";
import * as z from "zod/mini";

/** The parts of a candidate's `groundingMetadata` that name sources for the answer's text. */
export const nativeGroundingMetadataSchema = zLooseObject({
  groundingChunks: z.optional(
    z.array(
      zLooseObject({
        web: z.optional(
          zLooseObject({ uri: z.optional(z.string()), title: z.optional(z.string()) }),
        ),
      }),
    ),
  ),
  groundingSupports: z.optional(
    z.array(
      zLooseObject({
        segment: z.optional(
          zLooseObject({
            partIndex: z.optional(z.number().check(z.int()).check(z.nonnegative())),
            startIndex: z.optional(z.number().check(z.int()).check(z.nonnegative())),
            endIndex: z.optional(z.number().check(z.int()).check(z.nonnegative())),
            text: z.optional(z.string()),
          }),
        ),
        groundingChunkIndices: z.optional(
          z.array(z.number().check(z.int()).check(z.nonnegative())),
        ),
      }),
    ),
  ),
});
export type NativeGroundingMetadata = z.infer<typeof nativeGroundingMetadataSchema>;

/**
 * A UTF-8 byte offset into `text` -> the UTF-16 code-unit offset canonical citations use. Gemini
 * measures grounding segments in bytes of the part; an offset inside a character rounds up to its
 * end, one past the text clamps to its length.
 */
export function utf8ToUtf16Offset(text: string, bytes: number): number {
  let seen = 0;
  let units = 0;
  for (const ch of text) {
    if (seen >= bytes) return units;
    const cp = ch.codePointAt(0) ?? 0;
    seen += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    units += ch.length;
  }
  return units;
}

/**
 * groundingSupports -> citations on the text parts they point at (`partIndex` into the
 * candidate's parts; `textParts` maps it to the canonical text part). Each support names one or
 * more chunks; each web chunk becomes one citation over the segment. Chunks no support names are
 * cited over the whole first text part. Non-web chunks (retrieved context, maps) are reported.
 */
export function applyGrounding(
  grounding: NativeGroundingMetadata,
  textParts: ReadonlyMap<number, TextPart>,
  feature: string,
  warn: ((warning: Warning) => void) | undefined,
): void {
  const chunks = grounding.groundingChunks ?? [];
  const cited = new Set<number>();
  const add = (part: TextPart, citation: Citation) => {
    part.citations ??= [];
    part.citations.push(citation);
  };
  const webCitation = (k: number): Citation | undefined => {
    const web = chunks[k]?.web;
    if (web?.uri === undefined) return undefined;
    const citation: Citation = { type: "url", url: web.uri };
    if (web.title !== undefined) citation.title = web.title;
    return citation;
  };
  let skipped = false;
  for (const support of grounding.groundingSupports ?? []) {
    const segment = support.segment ?? {};
    const part = textParts.get(segment.partIndex ?? 0);
    if (part === undefined) {
      skipped = true;
      continue;
    }
    const startIndex = utf8ToUtf16Offset(part.text, segment.startIndex ?? 0);
    const endIndex = Math.max(
      startIndex,
      utf8ToUtf16Offset(part.text, segment.endIndex ?? Number.MAX_SAFE_INTEGER),
    );
    for (const k of support.groundingChunkIndices ?? []) {
      const base = webCitation(k);
      if (base === undefined) {
        skipped = true;
        continue;
      }
      cited.add(k);
      add(part, { ...base, startIndex, endIndex });
    }
  }
  const first = [...textParts.entries()].sort((a, b) => a[0] - b[0])[0]?.[1];
  chunks.forEach((_, k) => {
    if (cited.has(k)) return;
    const citation = webCitation(k);
    if (citation === undefined || first === undefined) {
      skipped = true;
      return;
    }
    add(first, citation);
  });
  if (skipped) {
    warn?.({
      type: "dropped",
      feature: `${feature}.groundingMetadata`,
      message: "grounding without a web source or a text part to cite was not kept",
    });
  }
}

/** A UTF-16 code-unit offset into `text` -> the UTF-8 byte offset Gemini segments use. */
export function utf16ToUtf8Offset(text: string, units: number): number {
  let bytes = 0;
  for (let i = 0; i < units && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      // A surrogate pair is one 4-byte character; an offset between its halves counts it whole.
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Cited text for `renderGrounding`: a part's text (or a stream's whole answer) and its citations. */
export interface CitedText {
  /** The candidate part the segments point into; absent in a stream, whose segments index the whole answer. */
  partIndex?: number;
  text: string;
  citations: readonly Citation[];
}

/**
 * Citations -> a candidate's `groundingMetadata`: one web chunk per distinct source, one support
 * per citation over its span in UTF-8 bytes (a citation without indices covers its whole text).
 * Gemini has no quoted source text: `citedText` is reported dropped.
 */
export function renderGrounding(
  cited: readonly CitedText[],
  feature: string,
  warn: ((warning: Warning) => void) | undefined,
): NativeGroundingMetadata | undefined {
  const chunks: { web: { uri: string; title?: string } }[] = [];
  const chunkOf = new Map<string, number>();
  const supports: NonNullable<NativeGroundingMetadata["groundingSupports"]> = [];
  let quoted = false;
  for (const { partIndex, text, citations } of cited) {
    for (const c of citations) {
      const key = `${c.url}\u0000${c.title ?? ""}`;
      let k = chunkOf.get(key);
      if (k === undefined) {
        k = chunks.length;
        chunkOf.set(key, k);
        chunks.push({
          web: c.title === undefined ? { uri: c.url } : { uri: c.url, title: c.title },
        });
      }
      const start = Math.min(c.startIndex ?? 0, text.length);
      const end = Math.max(start, Math.min(c.endIndex ?? text.length, text.length));
      const segment: { partIndex?: number; startIndex: number; endIndex: number; text: string } = {
        startIndex: utf16ToUtf8Offset(text, start),
        endIndex: utf16ToUtf8Offset(text, end),
        text: text.slice(start, end),
      };
      if (partIndex !== undefined) segment.partIndex = partIndex;
      supports.push({ segment, groundingChunkIndices: [k] });
      if (c.citedText !== undefined) quoted = true;
    }
  }
  if (quoted) {
    warn?.({
      type: "dropped",
      feature: `${feature}.citations.citedText`,
      message: "groundingMetadata has no quoted source text",
    });
  }
  if (supports.length === 0) return undefined;
  return { groundingChunks: chunks, groundingSupports: supports };
}
