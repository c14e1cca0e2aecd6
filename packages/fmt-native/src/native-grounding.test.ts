import type { Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { utf8ToUtf16Offset } from "./native-grounding.js";
import { parseNativeResponse } from "./parse-native-response.js";

const bytes = (s: string) => new TextEncoder().encode(s).length;

describe("groundingMetadata -> text citations", () => {
  it("converts UTF-8 byte offsets to UTF-16 offsets", () => {
    const text = "Zürich 🇨🇭 ok";
    // "Zürich" is 7 bytes, 6 code units; each flag letter is 4 bytes, 2 code units.
    expect(utf8ToUtf16Offset(text, 7)).toBe(6);
    expect(utf8ToUtf16Offset(text, 16)).toBe(11);
    expect(utf8ToUtf16Offset(text, 1000)).toBe(text.length);
  });

  it("cites each support's segment in its part with the chunks' url and title", () => {
    const warnings: Warning[] = [];
    const text = "Zürich is big. Bern is the capital.";
    const bern = bytes("Zürich is big. ");
    const parsed = parseNativeResponse(
      {
        candidates: [
          {
            content: { role: "model", parts: [{ text }] },
            finishReason: "STOP",
            groundingMetadata: {
              webSearchQueries: ["capital of switzerland"],
              groundingChunks: [
                { web: { uri: "https://a.example", title: "a.example" } },
                { web: { uri: "https://b.example", title: "b.example" } },
                { retrievedContext: { uri: "gs://x" } },
              ],
              groundingSupports: [
                {
                  segment: { startIndex: bern, endIndex: bytes(text), text: "Bern" },
                  groundingChunkIndices: [0, 2],
                },
              ],
            },
            citationMetadata: { citationSources: [{ uri: "https://c" }] },
          },
        ],
        usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
      },
      { onWarning: (w) => warnings.push(w) },
    );
    const part = parsed.message.parts[0];
    expect(part).toEqual({
      type: "text",
      text,
      citations: [
        {
          type: "url",
          url: "https://a.example",
          title: "a.example",
          startIndex: 15,
          endIndex: text.length,
        },
        { type: "url", url: "https://b.example", title: "b.example" },
      ],
    });
    expect(text.slice(15)).toBe("Bern is the capital.");
    expect(warnings.map((w) => w.feature).sort()).toEqual([
      "candidates[0].citationMetadata",
      "candidates[0].groundingMetadata",
    ]);
  });
});

describe("a reply part the reader refuses is the upstream's fault", () => {
  it.each([
    ["two data fields", { text: "a", functionCall: { name: "f", args: {} } }],
    ["a functionResponse from the model", { functionResponse: { name: "f", response: {} } }],
  ])("%s: 502, not 400", (_, part) => {
    let status: number | undefined;
    try {
      parseNativeResponse({ candidates: [{ content: { role: "model", parts: [part] } }] });
    } catch (error) {
      status = (error as { status?: number }).status;
    }
    expect(status).toBe(502);
  });
});
