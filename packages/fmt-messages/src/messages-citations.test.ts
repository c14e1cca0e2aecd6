import type { Response, Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { parseMessagesResponse } from "./parse-messages-response.js";
import { renderMessagesResponse } from "./render-messages-response.js";

function reply(parts: Response["message"]["parts"]): Response {
  return {
    id: "msg_1",
    model: "m",
    created: 0,
    message: { role: "assistant", parts },
    finishReason: { unified: "stop", raw: "end_turn" },
    usage: {
      inputTokens: 1,
      outputTokens: 1,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      thinkingTokens: 0,
    },
  };
}

describe("citations in a messages result", () => {
  it("reads web_search_result_location with url, title and cited_text", () => {
    const parsed = parseMessagesResponse({
      id: "msg_1",
      model: "m",
      content: [
        {
          type: "text",
          text: "Paris is the capital.",
          citations: [
            {
              type: "web_search_result_location",
              url: "https://example.org/fr",
              title: "France",
              cited_text: "Paris, capital of France",
              encrypted_index: "EqQ",
            },
            { type: "char_location", cited_text: "x", document_index: 0 },
          ],
        },
      ],
      stop_reason: "end_turn",
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    expect(parsed.message.parts).toEqual([
      {
        type: "text",
        text: "Paris is the capital.",
        citations: [
          {
            type: "url",
            url: "https://example.org/fr",
            title: "France",
            citedText: "Paris, capital of France",
          },
        ],
      },
    ]);
  });

  it("splits a text part at indexed citation bounds, text joined unchanged", () => {
    const warnings: Warning[] = [];
    const text = "Paris is big. Lyon is old.";
    const wire = renderMessagesResponse(
      reply([
        {
          type: "text",
          text,
          citations: [
            { type: "url", url: "https://a", title: "A", startIndex: 0, endIndex: 13 },
            { type: "url", url: "https://b", startIndex: 14, endIndex: 26, citedText: "Lyon" },
          ],
        },
      ]),
      { onWarning: (w) => warnings.push(w) },
    );
    expect(wire.content).toEqual([
      {
        type: "text",
        text: "Paris is big.",
        citations: [
          {
            type: "web_search_result_location",
            url: "https://a",
            title: "A",
            cited_text: "Paris is big.",
            encrypted_index: "",
          },
        ],
      },
      { type: "text", text: " " },
      {
        type: "text",
        text: "Lyon is old.",
        citations: [
          {
            type: "web_search_result_location",
            url: "https://b",
            title: null,
            cited_text: "Lyon",
            encrypted_index: "",
          },
        ],
      },
    ]);
    expect(wire.content.map((b) => (b.type === "text" ? b.text : "")).join("")).toBe(text);
    expect(warnings.map((w) => w.feature)).toEqual(["choices[0].message.parts[0].citations[0]"]);
  });

  it("round-trips whole-block citations", () => {
    const parts = [
      {
        type: "text" as const,
        text: "Hi",
        citations: [{ type: "url" as const, url: "https://a", title: "A", citedText: "src" }],
      },
    ];
    const back = parseMessagesResponse(renderMessagesResponse(reply(parts)));
    expect(back.message.parts).toEqual(parts);
  });
});

describe("parse reports what a reply's sources lose", () => {
  it("server tool blocks and document citations are reported, web citations kept", () => {
    const warnings: Warning[] = [];
    const response = parseMessagesResponse(
      {
        id: "msg_1",
        model: "m",
        content: [
          { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } },
          { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] },
          {
            type: "text",
            text: "Paris.",
            citations: [
              {
                type: "web_search_result_location",
                url: "https://a.example",
                title: "A",
                cited_text: "Paris is",
                encrypted_index: "x",
              },
              {
                type: "char_location",
                cited_text: "Paris",
                document_index: 0,
                document_title: "Doc",
                start_char_index: 0,
                end_char_index: 5,
              },
            ],
          },
        ],
        stop_reason: "end_turn",
        usage: { input_tokens: 1, output_tokens: 1 },
      },
      { onWarning: (w) => warnings.push(w) },
    );
    expect(response.message.parts).toEqual([
      {
        type: "text",
        text: "Paris.",
        citations: [{ type: "url", url: "https://a.example", title: "A", citedText: "Paris is" }],
      },
    ]);
    expect(warnings.map((w) => w.feature)).toEqual([
      "content[0].server_tool_use",
      "content[1].web_search_tool_result",
      "content[2].citations",
    ]);
  });
});
