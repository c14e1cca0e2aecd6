import type { Response, Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { parseChatResponse } from "./parse-chat-response.js";
import { renderChatResponse } from "./render-chat-response.js";

const body = {
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1,
  model: "m",
  choices: [
    {
      index: 0,
      finish_reason: "stop",
      message: {
        role: "assistant",
        content: "Paris is big.",
        annotations: [
          {
            type: "url_citation",
            url_citation: { url: "https://a", title: "A", start_index: 0, end_index: 5 },
          },
          { type: "file_citation", file_id: "f" },
        ],
      },
    },
  ],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};

describe("url_citation annotations", () => {
  it("parse keeps url_citation as text-part citations with the same indices", () => {
    const parsed = parseChatResponse(body);
    expect(parsed.message.parts).toEqual([
      {
        type: "text",
        text: "Paris is big.",
        citations: [{ type: "url", url: "https://a", title: "A", startIndex: 0, endIndex: 5 }],
      },
    ]);
    expect(renderChatResponse(parsed).choices[0]?.message.annotations).toEqual([
      body.choices[0]?.message.annotations[0],
    ]);
  });

  it("render shifts indices by the text before the part; whole-part citations span it", () => {
    const warnings: Warning[] = [];
    const response: Response = {
      id: "x",
      model: "m",
      created: 0,
      finishReason: { unified: "stop", raw: "end_turn" },
      message: {
        role: "assistant",
        parts: [
          { type: "text", text: "Hello. " },
          {
            type: "text",
            text: "Paris is big.",
            citations: [{ type: "url", url: "https://a", citedText: "Paris" }],
          },
          {
            type: "text",
            text: " Lyon.",
            citations: [{ type: "url", url: "https://b", startIndex: 1, endIndex: 5 }],
          },
        ],
      },
      usage: {
        inputTokens: 1,
        outputTokens: 1,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        thinkingTokens: 0,
      },
    };
    const message = renderChatResponse(response, { onWarning: (w) => warnings.push(w) }).choices[0]
      ?.message;
    expect(message?.content).toBe("Hello. Paris is big. Lyon.");
    expect(message?.annotations).toEqual([
      {
        type: "url_citation",
        url_citation: { url: "https://a", title: "", start_index: 7, end_index: 20 },
      },
      {
        type: "url_citation",
        url_citation: { url: "https://b", title: "", start_index: 21, end_index: 25 },
      },
    ]);
    expect(message?.content?.slice(21, 25)).toBe("Lyon");
    expect(warnings.map((w) => w.feature)).toEqual([
      "choices[0].message.parts[1].citations[0].citedText",
    ]);
  });
});
