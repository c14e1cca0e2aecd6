import type { Request } from "@interlingua/core-types";
import { GatewayError } from "@interlingua/errors";
import { describe, expect, it } from "vitest";
import { warnings } from "../test/helpers.js";
import { MESSAGES_TOOL_CALL_ID, toMessagesToolCallId } from "./messages-tool-call-id.js";
import { parseMessagesRequest } from "./parse-messages-request.js";
import { renderMessagesRequest } from "./render-messages-request.js";

const base = (over: Partial<Request> = {}): Request => ({
  model: "txtB-sonnet-4-6",
  system: [],
  messages: [{ role: "user", parts: [{ type: "text", text: "hi" }] }],
  sampling: { maxTokens: 1000 },
  tools: [],
  stream: false,
  ...over,
});

function refusal(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error("expected a GatewayError");
}

describe("turn structure toward Anthropic", () => {
  it("groups all tool_results of one turn in one user message, ahead of any text", () => {
    const wire = renderMessagesRequest(
      base({
        messages: [
          { role: "user", parts: [{ type: "text", text: "weather in Paris and Rome?" }] },
          {
            role: "assistant",
            parts: [
              { type: "tool-call", id: "toolu_a", name: "weather", arguments: '{"city":"Paris"}' },
              { type: "tool-call", id: "toolu_b", name: "weather", arguments: '{"city":"Rome"}' },
            ],
          },
          { role: "user", parts: [{ type: "text", text: "answer in French" }] },
          {
            role: "tool",
            parts: [
              {
                type: "tool-result",
                toolCallId: "toolu_a",
                content: [{ type: "text", text: "18C" }],
              },
            ],
          },
          {
            role: "tool",
            parts: [
              {
                type: "tool-result",
                toolCallId: "toolu_b",
                content: [{ type: "text", text: "22C" }],
              },
            ],
          },
        ],
      }),
    );
    expect(wire.messages).toEqual([
      { role: "user", content: "weather in Paris and Rome?" },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_a", name: "weather", input: { city: "Paris" } },
          { type: "tool_use", id: "toolu_b", name: "weather", input: { city: "Rome" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_a", content: "18C" },
          { type: "tool_result", tool_use_id: "toolu_b", content: "22C" },
          { type: "text", text: "answer in French" },
        ],
      },
    ]);
  });

  it("merges consecutive same-role messages (Anthropic requires alternation)", () => {
    const wire = renderMessagesRequest(
      base({
        messages: [
          { role: "user", parts: [{ type: "text", text: "a" }] },
          { role: "user", parts: [{ type: "text", text: "b" }] },
          { role: "assistant", parts: [{ type: "text", text: "c" }] },
          { role: "assistant", parts: [{ type: "text", text: "d" }] },
          { role: "user", parts: [{ type: "text", text: "e" }] },
        ],
      }),
    );
    expect(wire.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "text", text: "c" },
          { type: "text", text: "d" },
        ],
      },
      { role: "user", content: "e" },
    ]);
  });

  it("parses a user turn into a tool message then a user message, naming results after their call", () => {
    const request = parseMessagesRequest({
      model: "txtB-opus-4-6",
      max_tokens: 100,
      messages: [
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "toolu_1", name: "lookup", input: { q: "x" } }],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_1", content: "found", is_error: false },
            { type: "text", text: "thanks" },
          ],
        },
      ],
    });
    expect(request.messages).toEqual([
      { role: "user", parts: [{ type: "text", text: "go" }] },
      {
        role: "assistant",
        parts: [{ type: "tool-call", id: "toolu_1", name: "lookup", arguments: '{"q":"x"}' }],
      },
      {
        role: "tool",
        parts: [
          {
            type: "tool-result",
            toolCallId: "toolu_1",
            name: "lookup",
            content: [{ type: "text", text: "found" }],
            isError: false,
          },
        ],
      },
      { role: "user", parts: [{ type: "text", text: "thanks" }] },
    ]);
  });

  it("keeps a trailing assistant message as the prefill, without trailing whitespace", () => {
    const { list, onWarning } = warnings();
    const wire = renderMessagesRequest(
      base({
        messages: [
          { role: "user", parts: [{ type: "text", text: "JSON please" }] },
          { role: "assistant", parts: [{ type: "text", text: "{\n  " }] },
        ],
      }),
      { onWarning },
    );
    expect(wire.messages).toEqual([
      { role: "user", content: "JSON please" },
      { role: "assistant", content: "{" },
    ]);
    expect(list).toEqual([
      {
        type: "mapped",
        feature: "messages",
        message: "trailing whitespace removed from the final assistant turn",
      },
    ]);
  });
});

describe("thinking toward Anthropic", () => {
  const signature = "EqQBCkYIBRgCIkB+/=ü\u0000weird";

  it("carries thinking signatures byte for byte, both ways", () => {
    const request = base({
      messages: [
        { role: "user", parts: [{ type: "text", text: "think" }] },
        {
          role: "assistant",
          parts: [
            { type: "thinking", text: "hmm", signature },
            { type: "redacted-thinking", data: "cmVkYWN0ZWQ=" },
            { type: "text", text: "done" },
          ],
        },
        { role: "user", parts: [{ type: "text", text: "more" }] },
      ],
    });
    const wire = renderMessagesRequest(request);
    expect(wire.messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "hmm", signature },
        { type: "redacted_thinking", data: "cmVkYWN0ZWQ=" },
        { type: "text", text: "done" },
      ],
    });
    expect(parseMessagesRequest(JSON.parse(JSON.stringify(wire))).messages).toEqual(
      request.messages,
    );
  });

  it("never sends a thinking part without a signature, and never invents one", () => {
    const { list, onWarning } = warnings();
    const wire = renderMessagesRequest(
      base({
        messages: [
          { role: "user", parts: [{ type: "text", text: "q" }] },
          {
            role: "assistant",
            parts: [
              { type: "thinking", text: "from another provider" },
              { type: "thinking", text: "empty signature", signature: "" },
              { type: "text", text: "answer" },
            ],
          },
          { role: "user", parts: [{ type: "text", text: "q2" }] },
        ],
      }),
      { onWarning },
    );
    expect(wire.messages[1]).toEqual({ role: "assistant", content: "answer" });
    expect(list.map((w) => [w.type, w.feature])).toEqual([
      ["dropped", "messages[1].parts[0]"],
      ["dropped", "messages[1].parts[1]"],
    ]);
  });

  it("maps the thinking config: budget, adaptive, effort and display", () => {
    const enabled = renderMessagesRequest(
      base({
        sampling: { maxTokens: 8000 },
        thinking: { type: "enabled", budgetTokens: 4000, includeThoughts: false, effort: "high" },
      }),
    );
    expect(enabled.thinking).toEqual({ type: "enabled", budget_tokens: 4000, display: "omitted" });
    expect(enabled["output_config"]).toEqual({ effort: "high" });

    const adaptive = renderMessagesRequest(
      base({ thinking: { type: "adaptive", effort: "medium" } }),
    );
    expect(adaptive.thinking).toEqual({ type: "adaptive" });
    expect(adaptive["output_config"]).toEqual({ effort: "medium" });

    expect(
      parseMessagesRequest({
        model: "txtB-opus-4-6",
        max_tokens: 10,
        messages: [{ role: "user", content: "x" }],
        thinking: { type: "adaptive", display: "summarized" },
        output_config: { effort: "low", format: { type: "json_schema" } },
      }),
    ).toMatchObject({
      thinking: { type: "adaptive", includeThoughts: true, effort: "low" },
      extras: { messages: { output_config: { format: { type: "json_schema" } } } },
    });
  });

  it("derives a budget when only effort is given, and uses adaptive where enabled is refused", () => {
    const { list, onWarning } = warnings();
    const derived = renderMessagesRequest(
      base({ sampling: { maxTokens: 3000 }, thinking: { type: "enabled", effort: "high" } }),
      { onWarning },
    );
    // Room is left for the answer (fit-thinking-constraints.ts): 3000 - max(1024, 3000 / 4).
    expect(derived.thinking).toEqual({ type: "enabled", budget_tokens: 1976 });
    expect(list.map((w) => [w.type, w.feature])).toEqual([["mapped", "thinking.budgetTokens"]]);

    const adaptiveOnly = renderMessagesRequest(
      base({ model: "txtB-opus-4-8", thinking: { type: "enabled", budgetTokens: 8000 } }),
      { onWarning },
    );
    expect(adaptiveOnly.thinking).toEqual({ type: "adaptive" });
  });
});

describe("text toward Anthropic", () => {
  it("never sends empty or whitespace-only text", () => {
    const { list, onWarning } = warnings();
    const wire = renderMessagesRequest(
      base({
        system: [{ type: "text", text: "  " }],
        messages: [
          { role: "user", parts: [{ type: "text", text: "call it" }] },
          {
            role: "assistant",
            parts: [
              { type: "text", text: "" },
              { type: "tool-call", id: "toolu_x", name: "f", arguments: "" },
            ],
          },
          {
            role: "tool",
            parts: [
              {
                type: "tool-result",
                toolCallId: "toolu_x",
                content: [{ type: "text", text: " \n" }],
              },
            ],
          },
          { role: "user", parts: [{ type: "text", text: "\t" }] },
        ],
      }),
      { onWarning },
    );
    expect(wire.system).toBeUndefined();
    expect(wire.messages).toEqual([
      { role: "user", content: "call it" },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_x", name: "f", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_x" }] },
    ]);
    expect(list.map((w) => [w.type, w.feature])).toEqual([
      ["dropped", "system[0]"],
      ["dropped", "messages[1].parts[0]"],
      ["dropped", "messages[2].parts[0].content[0]"],
      ["dropped", "messages[3].parts[0]"],
      ["dropped", "messages[3]"],
    ]);
  });

  it("refuses a request left with no message to send", () => {
    const error = refusal(() =>
      renderMessagesRequest(
        base({ messages: [{ role: "user", parts: [{ type: "text", text: " " }] }] }),
      ),
    );
    expect([error.status, error.param]).toEqual([400, "messages"]);
  });

  it("keeps several system parts in order, as blocks with their cache boundaries", () => {
    const wire = renderMessagesRequest(
      base({
        system: [
          { type: "text", text: "You are terse.", cacheControl: { type: "ephemeral", ttl: "1h" } },
          { type: "text", text: "Answer in English." },
          { type: "text", text: "Never guess." },
        ],
      }),
    );
    expect(wire.system).toEqual([
      { type: "text", text: "You are terse.", cache_control: { type: "ephemeral", ttl: "1h" } },
      { type: "text", text: "Answer in English." },
      { type: "text", text: "Never guess." },
    ]);
  });

  it("keeps the system prompt's string or array shape on a same-format round trip", () => {
    const message = [{ role: "user" as const, content: "x" }];
    const asString = { model: "m", max_tokens: 5, system: "Be brief.", messages: message };
    const asArray = { ...asString, system: [{ type: "text" as const, text: "Be brief." }] };
    expect(renderMessagesRequest(parseMessagesRequest(asString)).system).toBe("Be brief.");
    expect(renderMessagesRequest(parseMessagesRequest(asArray)).system).toEqual(asArray.system);
  });
});

describe("tool-call ids", () => {
  it("rewrites ids Anthropic would reject identically on tool_use and tool_result", () => {
    const ids = ["call:1/x", "call.1.x", "call 1 x", "", "ünï"];
    const wire = renderMessagesRequest(
      base({
        messages: [
          { role: "user", parts: [{ type: "text", text: "go" }] },
          {
            role: "assistant",
            parts: ids.map((id) => ({
              type: "tool-call" as const,
              id,
              name: "f",
              arguments: "{}",
            })),
          },
          {
            role: "tool",
            parts: ids.map((id) => ({ type: "tool-result" as const, toolCallId: id, content: [] })),
          },
        ],
      }),
    );
    const [, assistant, user] = wire.messages;
    const uses = (assistant?.content as { id: string }[] | undefined)?.map((b) => b.id);
    const results = (user?.content as { tool_use_id: string }[] | undefined)?.map(
      (b) => b.tool_use_id,
    );
    expect(results).toEqual(uses);
    for (const id of uses ?? []) expect(id).toMatch(MESSAGES_TOOL_CALL_ID);
    expect(new Set(uses).size).toBe(ids.length);
  });

  it("is one deterministic function that leaves valid ids alone and never collides", () => {
    expect(toMessagesToolCallId("toolu_01A-b")).toBe("toolu_01A-b");
    expect(toMessagesToolCallId("call:1")).toBe(toMessagesToolCallId("call:1"));
    expect(toMessagesToolCallId("a.b")).not.toBe(toMessagesToolCallId("a:b"));
    expect(toMessagesToolCallId("a.b")).toMatch(/^a_b_[0-9a-z]+$/);
  });
});

describe("media", () => {
  it("sends images as URL and as base64, and parses both back", () => {
    const request = base({
      messages: [
        {
          role: "user",
          parts: [
            { type: "image", source: { type: "url", url: "https://example.com/cat.png" } },
            {
              type: "image",
              source: { type: "base64", mediaType: "image/png", data: "iVBORw0KGgo=" },
              cacheControl: { type: "ephemeral" },
            },
          ],
        },
      ],
    });
    const wire = renderMessagesRequest(request);
    expect(wire.messages[0]?.content).toEqual([
      { type: "image", source: { type: "url", url: "https://example.com/cat.png" } },
      {
        type: "image",
        source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" },
        cache_control: { type: "ephemeral" },
      },
    ]);
    expect(parseMessagesRequest(wire).messages).toEqual(request.messages);
  });

  it("sends a data URL image as a base64 source", () => {
    const wire = renderMessagesRequest(
      base({
        messages: [
          {
            role: "user",
            parts: [
              { type: "image", source: { type: "url", url: "data:image/jpeg;base64,/9j/4AAQ" } },
            ],
          },
        ],
      }),
    );
    expect(wire.messages[0]?.content).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "/9j/4AAQ" } },
    ]);
  });

  it("turns document blocks into file parts and back", () => {
    const wire = {
      model: "m",
      max_tokens: 5,
      messages: [
        {
          role: "user" as const,
          content: [
            {
              type: "document" as const,
              source: { type: "base64" as const, media_type: "application/pdf", data: "JVBERi0=" },
              title: "report.pdf",
            },
            {
              type: "document" as const,
              source: { type: "url" as const, url: "https://x.test/a.pdf" },
            },
            {
              type: "document" as const,
              source: { type: "text" as const, media_type: "text/plain" as const, data: "héllo" },
            },
            { type: "document" as const, source: { type: "file" as const, file_id: "file_011" } },
          ],
        },
      ],
    };
    const request = parseMessagesRequest(wire);
    expect(request.messages[0]?.parts).toEqual([
      {
        type: "file",
        source: { type: "base64", mediaType: "application/pdf", data: "JVBERi0=" },
        filename: "report.pdf",
      },
      { type: "file", source: { type: "url", url: "https://x.test/a.pdf" } },
      { type: "file", source: { type: "base64", mediaType: "text/plain", data: "aMOpbGxv" } },
      { type: "file", source: { type: "file-id", fileId: "file_011" } },
    ]);
    expect(renderMessagesRequest(request).messages).toEqual(wire.messages);
  });

  it("sends image files as image blocks and refuses file types Anthropic cannot read", () => {
    const { list, onWarning } = warnings();
    const file = (mediaType: string) =>
      base({
        messages: [
          {
            role: "user",
            parts: [{ type: "file", source: { type: "base64", mediaType, data: "AAAA" } }],
          },
        ],
      });
    expect(renderMessagesRequest(file("image/webp"), { onWarning }).messages[0]?.content).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/webp", data: "AAAA" } },
    ]);
    expect(list.map((w) => [w.type, w.feature])).toEqual([["mapped", "messages[0].parts[0]"]]);
    const error = refusal(() => renderMessagesRequest(file("audio/wav")));
    expect([error.status, error.param]).toEqual([400, "messages[0].parts[0]"]);
  });
});

describe("sampling and options", () => {
  it("refuses n > 1 with a 400 naming n", () => {
    const error = refusal(() => renderMessagesRequest(base({ sampling: { maxTokens: 10, n: 2 } })));
    expect([error.status, error.type, error.param]).toEqual([400, "invalid_request_error", "n"]);
    expect(renderMessagesRequest(base({ sampling: { maxTokens: 10, n: 1 } }))).not.toHaveProperty(
      "n",
    );
  });

  it("sends a temperature above 1 (OpenAI's and Gemini's 0..2) as 1, with a mapped warning", () => {
    const { list, onWarning } = warnings();
    const wire = renderMessagesRequest(base({ sampling: { maxTokens: 10, temperature: 1.5 } }), {
      onWarning,
    });
    expect(wire.temperature).toBe(1);
    expect(list.map((w) => `${w.feature}=${w.type}`)).toEqual(["sampling.temperature=mapped"]);
    const kept = warnings();
    expect(
      renderMessagesRequest(base({ sampling: { maxTokens: 10, temperature: 1 } }), {
        onWarning: kept.onWarning,
      }).temperature,
    ).toBe(1);
    expect(kept.list).toEqual([]);
  });

  it("drops frequency and presence penalties and seed with warnings", () => {
    const { list, onWarning } = warnings();
    const wire = renderMessagesRequest(
      base({ sampling: { maxTokens: 10, frequencyPenalty: 0.5, presencePenalty: -1, seed: 7 } }),
      { onWarning },
    );
    expect(wire).toEqual({
      model: "txtB-sonnet-4-6",
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(list.map((w) => [w.type, w.feature])).toEqual([
      ["dropped", "sampling.frequencyPenalty"],
      ["dropped", "sampling.presencePenalty"],
      ["dropped", "sampling.seed"],
    ]);
  });

  it.each([
    ["txtB-opus-4-8", 64000],
    ["txtB-sonnet-4-6", 64000],
    ["claude-opus-4-1-20250805", 32000],
    ["claude-opus-4-20250514", 32000],
    ["claude-3-5-haiku-20241022", 8192],
    ["claude-3-haiku-20240307", 4096],
    ["some-other-model", 4096],
  ])("defaults a missing max_tokens for %s to %i, reported as mapped", (model, expected) => {
    const { list, onWarning } = warnings();
    const wire = renderMessagesRequest(base({ model, sampling: {} }), { onWarning });
    expect(wire.max_tokens).toBe(expected);
    expect(list.map((w) => [w.type, w.feature])).toEqual([["mapped", "sampling.maxTokens"]]);
  });

  it("sends a json-schema response format as Anthropic's output_config.format", () => {
    const { list, onWarning } = warnings();
    const wire = renderMessagesRequest(
      base({ responseFormat: { type: "json-schema", name: "out", schema: { type: "object" } } }),
      { onWarning },
    );
    expect(wire["output_config"]).toEqual({
      format: { type: "json_schema", schema: { type: "object", additionalProperties: false } },
    });
    expect(wire).not.toHaveProperty("response_format");
    expect(list.map((w) => [w.type, w.feature])).toEqual([
      ["mapped", "responseFormat.schema"],
      ["mapped", "responseFormat"],
    ]);
  });

  it("maps tool choice and disable_parallel_tool_use both ways", () => {
    const tools: Request["tools"] = [
      { type: "function", name: "f", parameters: { type: "object" } },
    ];
    const cases: [Partial<Request>, unknown][] = [
      [{ toolChoice: { type: "auto" } }, { type: "auto" }],
      [
        { toolChoice: { type: "required" }, parallelToolCalls: false },
        { type: "any", disable_parallel_tool_use: true },
      ],
      [{ toolChoice: { type: "tool", name: "f" } }, { type: "tool", name: "f" }],
      [{ toolChoice: { type: "none" } }, { type: "none" }],
      [{ parallelToolCalls: false }, { type: "auto", disable_parallel_tool_use: true }],
    ];
    for (const [over, expected] of cases) {
      const wire = renderMessagesRequest(base({ tools, ...over }));
      expect(wire.tool_choice).toEqual(expected);
    }
    expect(
      parseMessagesRequest({
        model: "m",
        max_tokens: 1,
        messages: [{ role: "user", content: "x" }],
        tool_choice: { type: "any", disable_parallel_tool_use: true },
      }),
    ).toMatchObject({ toolChoice: { type: "required" }, parallelToolCalls: false });
  });

  it("an allowed list sends only the allowed tools, with auto or any, warned", () => {
    const fn = (name: string) =>
      ({ type: "function", name, parameters: { type: "object" } }) as const;
    const tools: Request["tools"] = [fn("f"), fn("g"), fn("h"), { type: "web_search" }];
    for (const [type, wireType] of [
      ["auto", "auto"],
      ["required", "any"],
    ] as const) {
      const { list, onWarning } = warnings();
      const wire = renderMessagesRequest(
        base({ tools, toolChoice: { type, allowed: ["h", "f"] } }),
        { onWarning },
      );
      expect(wire.tools?.map((t) => t.name)).toEqual(["f", "h"]);
      expect(wire.tool_choice).toEqual({ type: wireType });
      expect(list.map((w) => [w.type, w.feature])).toEqual([["mapped", "tools"]]);
    }
    const { list, onWarning } = warnings();
    const whole = renderMessagesRequest(
      base({ tools: [fn("f")], toolChoice: { type: "auto", allowed: ["f"] } }),
      { onWarning },
    );
    expect(whole.tools?.map((t) => t.name)).toEqual(["f"]);
    expect(list).toEqual([]);
  });

  it("parses Anthropic tool types as provider tools and renders them back", () => {
    const tools = [
      {
        name: "get_weather",
        description: "Weather",
        input_schema: { type: "object" },
        cache_control: { type: "ephemeral" as const },
      },
      {
        type: "computer_20241022",
        name: "computer",
        display_width_px: 1024,
        display_height_px: 768,
      },
      { type: "text_editor_20241022", name: "str_replace_editor" },
      { type: "bash_20241022", name: "bash" },
    ];
    const request = parseMessagesRequest({
      model: "m",
      max_tokens: 1,
      messages: [{ role: "user", content: "x" }],
      tools,
    });
    expect(request.tools).toEqual([
      {
        type: "function",
        name: "get_weather",
        description: "Weather",
        parameters: { type: "object" },
        cacheControl: { type: "ephemeral" },
      },
      {
        type: "provider",
        provider: "anthropic",
        name: "computer_20241022",
        options: { name: "computer", display_width_px: 1024, display_height_px: 768 },
      },
      {
        type: "provider",
        provider: "anthropic",
        name: "text_editor_20241022",
        options: { name: "str_replace_editor" },
      },
      { type: "provider", provider: "anthropic", name: "bash_20241022", options: { name: "bash" } },
    ]);
    expect(renderMessagesRequest(request).tools).toEqual(tools);
  });

  it("drops tools Anthropic cannot run, and maps web search to Anthropic's", () => {
    const { list, onWarning } = warnings();
    const wire = renderMessagesRequest(
      base({
        tools: [
          { type: "web_search", options: { max_uses: 3, search_context_size: "low" } },
          { type: "file_search" },
          { type: "remote_mcp", url: "https://mcp.test", timeout: 30 },
          { type: "provider", provider: "gemini", name: "googleSearch", options: {} },
        ],
      }),
      { onWarning },
    );
    expect(wire.tools).toEqual([{ type: "web_search_20250305", name: "web_search", max_uses: 3 }]);
    expect(list.map((w) => [w.type, w.feature])).toEqual([
      ["dropped", "tools[0].options.search_context_size"],
      ["mapped", "tools[0]"],
      ["dropped", "tools[1]"],
      ["dropped", "tools[2]"],
      ["dropped", "tools[3]"],
    ]);
  });

  it("metadata.user_id is the canonical user; other metadata is kept canonically, not sent", () => {
    const request = parseMessagesRequest({
      model: "m",
      max_tokens: 1,
      messages: [{ role: "user", content: "x" }],
      metadata: { user_id: "u-42", team: "blue" },
    });
    expect([request.user, request.metadata]).toEqual(["u-42", { team: "blue" }]);
    const { list, onWarning } = warnings();
    expect(renderMessagesRequest(request, { onWarning }).metadata).toEqual({ user_id: "u-42" });
    expect(list.map((w) => [w.type, w.feature])).toEqual([["dropped", "metadata"]]);
  });

  it("keeps unknown top-level fields in extras.messages and sends them back", () => {
    const wire = {
      model: "m",
      max_tokens: 1,
      messages: [{ role: "user" as const, content: "x" }],
      service_tier: "standard_only",
      container: "cntr_1",
      mcp_servers: [{ type: "url", url: "https://mcp.test", name: "t" }],
    };
    const request = parseMessagesRequest(wire);
    expect(request.extras).toEqual({
      messages: {
        service_tier: "standard_only",
        container: "cntr_1",
        mcp_servers: [{ type: "url", url: "https://mcp.test", name: "t" }],
      },
    });
    expect(renderMessagesRequest(request)).toEqual(wire);
  });

  it("sends back extras named like Object.prototype members, never a __proto__", () => {
    const extras = JSON.parse('{"constructor":"c","toString":1,"__proto__":{"stream":true}}');
    const out = renderMessagesRequest(base({ extras: { messages: extras } }));
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.stream).toBeUndefined();
    expect(Object.hasOwn(out, "constructor")).toBe(true);
    expect(out).toMatchObject({ constructor: "c", toString: 1 });
  });

  it("cache_control on any block becomes the part's cacheControl and back", () => {
    const wire = {
      model: "m",
      max_tokens: 1,
      system: [
        {
          type: "text" as const,
          text: "sys",
          cache_control: { type: "ephemeral" as const, ttl: "1h" as const },
        },
      ],
      messages: [
        {
          role: "user" as const,
          content: [
            {
              type: "text" as const,
              text: "long doc",
              cache_control: { type: "ephemeral" as const },
            },
          ],
        },
      ],
    };
    const request = parseMessagesRequest(wire);
    expect(request.system).toEqual([
      { type: "text", text: "sys", cacheControl: { type: "ephemeral", ttl: "1h" } },
    ]);
    expect(request.messages[0]?.parts).toEqual([
      { type: "text", text: "long doc", cacheControl: { type: "ephemeral" } },
    ]);
    expect(renderMessagesRequest(request)).toEqual(wire);
  });

  it("refuses tool-call arguments that are not a JSON object", () => {
    const error = refusal(() =>
      renderMessagesRequest(
        base({
          messages: [
            { role: "user", parts: [{ type: "text", text: "x" }] },
            {
              role: "assistant",
              parts: [{ type: "tool-call", id: "t", name: "f", arguments: '{"a":' }],
            },
          ],
        }),
      ),
    );
    expect([error.status, error.param]).toEqual([400, "messages[1].parts[0].arguments"]);
  });
});
