import type { Response, Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { renderResponsesApiResponse } from "./render-responses-api-response.js";
import { renderResponsesResponse } from "./render-responses-response.js";

const response: Response = {
  id: "r",
  model: "m",
  created: 0,
  choices: [
    {
      index: 0,
      finishReason: { unified: "stop", raw: "stop" },
      message: {
        role: "assistant",
        parts: [{ type: "text", text: "Hi", citations: [{ type: "url", url: "https://a" }] }],
      },
    },
  ],
  usage: {
    inputTokens: 1,
    outputTokens: 1,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    thinkingTokens: 0,
  },
};

describe("citations not yet written as annotations", () => {
  it.each([
    ["OpenAI shape", renderResponsesApiResponse],
    ["spec shape", renderResponsesResponse],
  ] as const)("%s: warns instead of dropping them silently", (_, render) => {
    const warnings: Warning[] = [];
    render(response, { onWarning: (w) => warnings.push(w) });
    expect(warnings.map((w) => w.feature)).toContain("parts.citations");
  });
});
