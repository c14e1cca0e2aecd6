import {
  type AssistantPart,
  accumulateStream,
  type Citation,
  type Codec,
  type Response,
  responseToEvents,
} from "@interlingua/core-types";
import { fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { asJson, codecs, throughWire } from "./codecs.js";

// Issue 26 item 5, as properties: every format keeps a cited answer's sources, whole and
// streamed, alone and after another format. What is compared is the coverage: for each source
// (url and title), which characters of the joined answer it cites. That is what each format can
// carry; where it carries less it reports it (cited text in chat, Responses and Gemini), and
// Anthropic streams cite whole blocks only (see `wholeBlocks`).

const quiet = { onWarning: () => {} };

/** Words with multi-byte and astral characters, so UTF-16, UTF-8 and block offsets all differ. */
const word = fc.constantFrom("Paris", "é", "Zürich", "東京", "😀", "a", "capital", "ß!");
const answer = fc.array(word, { minLength: 1, maxLength: 8 }).map((w) => w.join(" "));

/** Code-point boundaries of `text`: a citation never splits a character. */
const boundaries = (text: string): number[] => {
  const out = [0];
  let at = 0;
  for (const ch of text) {
    at += ch.length;
    out.push(at);
  }
  return out;
};

const citedAnswer = answer.chain((text) => {
  const cuts = boundaries(text);
  const span = fc
    .tuple(fc.nat({ max: cuts.length - 1 }), fc.nat({ max: cuts.length - 1 }))
    .filter(([a, b]) => a !== b)
    .map(([a, b]) => [cuts[Math.min(a, b)] as number, cuts[Math.max(a, b)] as number] as const);
  const citation: fc.Arbitrary<Citation> = fc
    .record(
      {
        url: fc.constantFrom("https://a.example/x", "https://b.example/y?q=1", "https://c.example"),
        title: fc.constantFrom("A", "Bé", "C 😀"),
        span,
        citedText: fc.constantFrom("quoted source", "zitat"),
      },
      { requiredKeys: ["url"] },
    )
    .map(({ url, title, span: s, citedText }) => {
      const c: Citation = { type: "url", url };
      if (title !== undefined) c.title = title;
      if (s !== undefined) {
        c.startIndex = s[0];
        c.endIndex = s[1];
      }
      if (citedText !== undefined) c.citedText = citedText;
      return c;
    });
  return fc.record({
    text: fc.constant(text),
    citations: fc.array(citation, { minLength: 1, maxLength: 3 }),
  });
});

const response = (parts: AssistantPart[], finish: "stop" | "tool-calls" = "stop"): Response => ({
  id: "resp_cited",
  model: "txtA-5",
  created: 0,
  message: { role: "assistant", parts },
  finishReason: { unified: finish },
  usage: {
    inputTokens: 3,
    outputTokens: 5,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    thinkingTokens: 0,
  },
});

/**
 * A cited answer in one or two text parts (streams: formats join or split parts differently, so
 * offsets must shift), or followed by a tool call (whole replies).
 */
const citedResponse = fc
  .array(citedAnswer, { minLength: 1, maxLength: 2 })
  .map((answers) => response(answers.map((a) => ({ type: "text" as const, ...a }))));
const citedResponseWithCall = fc.tuple(citedAnswer, fc.boolean()).map(([a, call]) =>
  call
    ? response(
        [
          { type: "text", ...a },
          { type: "tool-call", id: "call_1", name: "lookup", arguments: '{"q":"x"}' },
        ],
        "tool-calls",
      )
    : response([{ type: "text", ...a }]),
);

interface Cover {
  source: string;
  start: number;
  end: number;
}

/**
 * The joined answer and, per source, the merged ranges of it that are cited. A citation without
 * indices covers its whole part; a title a format requires is "" when none was given.
 */
function coverage(r: Response): { text: string; cover: Cover[] } {
  const parts = r.message.parts ?? [];
  let text = "";
  const spans: Cover[] = [];
  for (const part of parts) {
    if (part.type !== "text") continue;
    for (const c of part.citations ?? []) {
      spans.push({
        source: `${c.url} ${c.title ?? ""}`,
        start: text.length + (c.startIndex ?? 0),
        end: text.length + (c.endIndex ?? part.text.length),
      });
    }
    text += part.text;
  }
  spans.sort((a, b) => a.source.localeCompare(b.source) || a.start - b.start || a.end - b.end);
  const cover: Cover[] = [];
  for (const s of spans) {
    const last = cover[cover.length - 1];
    if (last !== undefined && last.source === s.source && s.start <= last.end) {
      last.end = Math.max(last.end, s.end);
    } else cover.push({ ...s });
  }
  return { text, cover };
}

/** What an Anthropic stream keeps: it cites whole blocks, so every citation covers its part. */
function wholeBlocks(r: Response): Response {
  const copy = asJson(r);
  for (const part of copy.message.parts ?? []) {
    if (part.type !== "text") continue;
    for (const c of part.citations ?? []) {
      delete c.startIndex;
      delete c.endIndex;
    }
  }
  return copy;
}

/** Formats whose whole reply holds citations (the spec's chat-like Responses result has none). */
const WHOLE = Object.entries(codecs).filter(([name]) => name !== "interlinguaResponses");
const STREAMED = Object.entries(codecs);
const isMessages = (codec: Codec) => codec === codecs["messages"];

describe("citations, whole replies: every format keeps what is cited", () => {
  describe.each(WHOLE)("%s", (_name, F) => {
    it("parse(render(r)) cites the same ranges of the same answer", () => {
      fc.assert(
        fc.property(citedResponseWithCall, (r0) => {
          const r1 = F.response.parse(F.response.render(r0, quiet));
          expect(coverage(r1)).toEqual(coverage(r0));
        }),
      );
    });
  });

  describe.each(
    WHOLE.flatMap(([f, F]) =>
      WHOLE.filter(([g]) => g !== f).map(([g, G]) => [f, g, F, G] as const),
    ),
  )("%s -> %s", (_f, _g, F, G) => {
    it("a translated reply cites the same ranges", () => {
      fc.assert(
        fc.property(citedResponseWithCall, (r0) => {
          const r1 = F.response.parse(F.response.render(r0, quiet));
          const r2 = G.response.parse(G.response.render(r1, quiet));
          expect(coverage(r2)).toEqual(coverage(r0));
        }),
        { numRuns: 40 },
      );
    });
  });
});

describe("citations, streams: every format keeps what is cited", () => {
  describe.each(STREAMED)("%s", (_name, F) => {
    it("the stream, accumulated, cites what the answer cites", async () => {
      await fc.assert(
        fc.asyncProperty(citedResponse, async (r0) => {
          const r1 = accumulateStream(await throughWire(F, responseToEvents(r0)));
          expect(coverage(r1)).toEqual(coverage(isMessages(F) ? wholeBlocks(r0) : r0));
        }),
        { numRuns: 50 },
      );
    });
  });

  describe.each(
    STREAMED.flatMap(([f, F]) =>
      STREAMED.filter(([g]) => g !== f).map(([g, G]) => [f, g, F, G] as const),
    ),
  )("%s -> %s", (_f, _g, F, G) => {
    it("a translated stream cites the same ranges", async () => {
      await fc.assert(
        fc.asyncProperty(citedResponse, async (r0) => {
          const e1 = await throughWire(F, responseToEvents(r0));
          const e2 = await throughWire(G, e1);
          // Anthropic widens each citation to the block it is written in: the parts it was given.
          const expected = isMessages(G)
            ? wholeBlocks(accumulateStream(e1))
            : isMessages(F)
              ? wholeBlocks(r0)
              : r0;
          expect(coverage(accumulateStream(e2))).toEqual(coverage(expected));
        }),
        { numRuns: 25 },
      );
    });
  });
});
