import type { Response, Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { parseResponsesResponse } from "./parse-responses-api-response.js";
import { renderResponsesResponse } from "./render-responses-api-response.js";
import { renderInterlinguaResponsesResponse } from "./render-responses-response.js";

const response: Response = {
  id: "r",
  model: "m",
  created: 0,
  finishReason: { unified: "stop", raw: "stop" },
  message: {
    role: "assistant",
    parts: [{ type: "text", text: "Hi", citations: [{ type: "url", url: "https://a" }] }],
  },
  usage: {
    inputTokens: 1,
    outputTokens: 1,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    thinkingTokens: 0,
  },
};

describe("citations in Responses results", () => {
  it("spec shape: warns instead of dropping them silently", () => {
    const warnings: Warning[] = [];
    renderInterlinguaResponsesResponse(response, { onWarning: (w) => warnings.push(w) });
    expect(warnings.map((w) => w.feature)).toContain("parts.citations");
  });

  it("OpenAI shape: url_citation annotations on output_text, and back", () => {
    const cited: Response = {
      ...response,
      finishReason: { unified: "stop", raw: "stop" },
      message: {
        role: "assistant",
        parts: [
          { type: "text", text: "One. " },
          {
            type: "text",
            text: "Paris is big.",
            citations: [{ type: "url", url: "https://a", title: "A", startIndex: 0, endIndex: 5 }],
          },
        ],
      },
    };
    const warnings: Warning[] = [];
    const wire = renderResponsesResponse(cited, { onWarning: (w) => warnings.push(w) });
    const texts = wire.output
      .flatMap((item) => (Array.isArray(item["content"]) ? item["content"] : []))
      .filter((p: Record<string, unknown>) => p["type"] === "output_text");
    expect(texts.map((p: Record<string, unknown>) => p["annotations"])).toEqual([
      [],
      [{ type: "url_citation", start_index: 0, end_index: 5, url: "https://a", title: "A" }],
    ]);
    expect(warnings).toEqual([]);
    const back = parseResponsesResponse(wire);
    expect(back.message.parts).toEqual(cited.message.parts);
  });
});
