import {
  type FinishReason,
  outputsOf,
  type Response,
  responseToEvents,
  type Warning,
} from "@interlingua/core-types";
import { GatewayError } from "@interlingua/errors";
import { describe, expect, it } from "vitest";
import { chat } from "./chat-codec.js";
import { parseChatResponse } from "./parse-chat-response.js";
import { renderChatResponse } from "./render-chat-response.js";
import { fc } from "./testing.js";

const body = (message: object, finish_reason: string | null = "stop", usage?: object) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "txtA-5",
  choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason }],
  ...(usage === undefined ? {} : { usage }),
});

const response = (over: Partial<Response> = {}): Response => ({
  id: "r",
  model: "txtA-5",
  created: 1,
  message: { role: "assistant", parts: [{ type: "text", text: "ok" }] },
  finishReason: { unified: "stop", raw: "stop" },
  usage: {
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    thinkingTokens: 0,
  },
  ...over,
});

describe("usage semantics converted", () => {
  it("prompt_tokens includes cached tokens: inputTokens is prompt_tokens, cached a subset", () => {
    const parsed = parseChatResponse(
      body({ content: "hi" }, "stop", {
        prompt_tokens: 1000,
        completion_tokens: 300,
        total_tokens: 1300,
        prompt_tokens_details: { cached_tokens: 800, cache_write_tokens: 150, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 200, audio_tokens: 0 },
      }),
    );
    expect(parsed.usage).toStrictEqual({
      inputTokens: 1000,
      outputTokens: 300,
      cachedInputTokens: 800,
      cacheWriteTokens: 150,
      thinkingTokens: 200,
    });
  });

  it("renders back with the details and a recomputed total", () => {
    const wire = renderChatResponse(
      response({
        usage: {
          inputTokens: 1000,
          outputTokens: 300,
          cachedInputTokens: 800,
          cacheWriteTokens: 150,
          thinkingTokens: 200,
          serviceTier: "default",
        },
      }),
    );
    expect(wire.usage).toStrictEqual({
      prompt_tokens: 1000,
      completion_tokens: 300,
      total_tokens: 1300,
      prompt_tokens_details: { cached_tokens: 800, cache_write_tokens: 150 },
      completion_tokens_details: { reasoning_tokens: 200 },
    });
    expect(wire.service_tier).toBe("default");
  });

  it("missing details (Groq) and missing usage count as zero", () => {
    expect(
      parseChatResponse(
        body({ content: "x" }, "stop", {
          prompt_tokens: 218,
          completion_tokens: 15,
          total_tokens: 233,
          queue_time: 0.17,
        }),
      ).usage,
    ).toStrictEqual({
      inputTokens: 218,
      outputTokens: 15,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      thinkingTokens: 0,
    });
    expect(parseChatResponse(body({ content: "x" })).usage.inputTokens).toBe(0);
  });

  it("usage fields chat has no place for are dropped with a warning", () => {
    const warnings: Warning[] = [];
    renderChatResponse(
      response({
        usage: {
          inputTokens: 10,
          outputTokens: 1,
          cachedInputTokens: 0,
          cacheWriteTokens: 4,
          thinkingTokens: 0,
          cacheWrite5mTokens: 1,
          cacheWrite1hTokens: 3,
        },
      }),
      { onWarning: (w) => warnings.push(w) },
    );
    expect(warnings.map((w) => w.feature)).toEqual([
      "usage.cacheWrite5mTokens",
      "usage.cacheWrite1hTokens",
    ]);
  });
});

describe("finish reasons mapped by table with the raw value kept", () => {
  it.each([
    ["stop", "stop"],
    ["length", "length"],
    ["content_filter", "content-filter"],
    ["tool_calls", "tool-calls"],
    ["function_call", "tool-calls"],
    ["insufficient_system_resource", "error"],
    ["something_new", "other"],
  ])("%s -> %s, raw kept, rendered back", (raw, unified) => {
    const parsed = parseChatResponse(body({ content: "x" }, raw));
    expect(parsed.finishReason).toStrictEqual({ unified, raw });
    const rendered = renderChatResponse(parsed).choices[0]?.finish_reason;
    // The raw value when chat defines it, else the table's chat value for the unified reason.
    const chatValues = ["stop", "length", "content_filter", "tool_calls", "function_call"];
    expect(rendered).toBe(chatValues.includes(raw) ? raw : "stop");
  });

  it.each([
    [{ unified: "stop" }, "stop"],
    [{ unified: "length", raw: "max_tokens" }, "length"],
    [{ unified: "tool-calls", raw: "tool_use" }, "tool_calls"],
    [{ unified: "content-filter", raw: "SAFETY" }, "content_filter"],
    [{ unified: "error" }, "stop"],
    [{ unified: "other", raw: "OTHER" }, "stop"],
  ] as const)("a finish reason from elsewhere %j renders as %s", (finishReason, expected) => {
    const warnings: Warning[] = [];
    const base = response();
    const wire = renderChatResponse(
      { ...base, finishReason: { ...finishReason } },
      { onWarning: (w) => warnings.push(w) },
    );
    expect(wire.choices[0]?.finish_reason).toBe(expected);
    const mapped = finishReason.unified === "error" || finishReason.unified === "other";
    // A block reason chat has no field for is a visible loss.
    const blocked = finishReason.unified === "content-filter";
    expect(warnings.map((w) => w.type)).toEqual(mapped ? ["mapped"] : blocked ? ["dropped"] : []);
  });

  it("names the block reason it cannot carry, streamed and not; its own content_filter is no loss", () => {
    const base = response();
    const seen = (finishReason: FinishReason): [string[], string[]] => {
      const whole: Warning[] = [];
      const streamed: Warning[] = [];
      const withReason = { ...base, finishReason };
      renderChatResponse(withReason, { onWarning: (w) => whole.push(w) });
      const encoder = chat.stream.encoder({ onWarning: (w) => streamed.push(w) });
      for (const event of responseToEvents(withReason)) encoder.push(event, () => {});
      encoder.end(() => {});
      const messages = (ws: Warning[]) =>
        ws.filter((w) => w.feature.endsWith("finishReason.raw")).map((w) => w.message);
      return [messages(whole), messages(streamed)];
    };
    const [whole, streamed] = seen({
      unified: "content-filter",
      raw: "refusal",
      category: "cyber",
      explanation: "Blocked.",
    });
    expect(whole).toEqual([
      'chat has no field for the block reason (refusal; cyber; Blocked.); "content_filter" was sent',
    ]);
    expect(streamed).toEqual(whole);
    expect(seen({ unified: "content-filter", raw: "content_filter" })).toEqual([[], []]);
  });
});

describe("refusals", () => {
  it("a refusal becomes text and a content-filter finish, the raw reason kept", () => {
    const parsed = parseChatResponse(
      body({ content: null, refusal: "I can't help with that." }, "stop"),
    );
    expect(outputsOf(parsed)[0]).toStrictEqual({
      index: 0,
      message: { role: "assistant", parts: [{ type: "text", text: "I can't help with that." }] },
      finishReason: { unified: "content-filter", raw: "stop" },
    });
    expect(renderChatResponse(parsed).choices[0]).toStrictEqual({
      index: 0,
      message: { role: "assistant", content: "I can't help with that.", refusal: null },
      logprobs: null,
      finish_reason: "stop",
    });
  });
});

describe("tools with no arguments (response)", () => {
  it('"" arguments from upstream become "{}"', () => {
    const parsed = parseChatResponse(
      body(
        {
          content: null,
          tool_calls: [
            { id: "a", type: "function", function: { name: "now", arguments: "" } },
            { index: 1, id: "b", type: "function", function: { name: "f", arguments: "{}" } },
          ],
        },
        "tool_calls",
      ),
    );
    expect(parsed.message.parts).toStrictEqual([
      { type: "tool-call", id: "a", name: "now", arguments: "{}" },
      { type: "tool-call", id: "b", name: "f", arguments: "{}" },
    ]);
  });
});

describe("reasoning_content round trip (response)", () => {
  it("reasoning_content is a thinking part before the text, and comes back", () => {
    const wire = body({ content: "3", reasoning_content: "count the r's" });
    const parsed = parseChatResponse(wire);
    expect(parsed.message.parts).toStrictEqual([
      { type: "thinking", text: "count the r's" },
      { type: "text", text: "3" },
    ]);
    expect(renderChatResponse(parsed).choices[0]?.message).toStrictEqual({
      role: "assistant",
      content: "3",
      refusal: null,
      reasoning_content: "count the r's",
    });
  });

  it("`reasoning` (Groq, OpenRouter) is read as reasoning_content", () => {
    expect(parseChatResponse(body({ content: "x", reasoning: "r" })).message.parts).toStrictEqual([
      { type: "thinking", text: "r" },
      { type: "text", text: "x" },
    ]);
  });

  it("signatures and redacted thinking go out as reasoning_details, without warnings", () => {
    const warnings: Warning[] = [];
    const base = response();
    const wire = renderChatResponse(
      {
        ...base,
        message: {
          role: "assistant",
          parts: [
            { type: "thinking", text: "t", signature: "s" },
            { type: "redacted-thinking", data: "d" },
            { type: "text", text: "a" },
          ],
        },
      },
      { onWarning: (w) => warnings.push(w) },
    );
    expect(wire.choices[0]?.message).toStrictEqual({
      role: "assistant",
      content: "a",
      refusal: null,
      reasoning_content: "t",
      reasoning_details: [
        { type: "reasoning.text", text: "t", signature: "s", index: 0 },
        { type: "reasoning.encrypted", data: "d", format: "anthropic-claude-v1", index: 1 },
      ],
    });
    expect(warnings).toEqual([]);
  });
});

describe("response envelope", () => {
  it("unknown top-level fields are kept, unknown nested fields ignored", () => {
    const parsed = parseChatResponse({
      ...body({ content: "x", annotations: [], audio: null }),
      system_fingerprint: "fp_1",
      service_tier: "default",
    });
    expect(parsed.extras).toStrictEqual({ chat: { system_fingerprint: "fp_1" } });
    expect(parsed.usage.serviceTier).toBe("default");
    const wire = renderChatResponse(parsed);
    expect(wire).toStrictEqual({
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1_700_000_000,
      model: "txtA-5",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "x", refusal: null },
          logprobs: null,
          finish_reason: "stop",
        },
      ],
      usage: {
        prompt_tokens: 0,
        completion_tokens: 0,
        total_tokens: 0,
        prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
      service_tier: "default",
      system_fingerprint: "fp_1",
    });
  });

  it("a bad body is an upstream fault (502) naming the field, never a TypeError", () => {
    try {
      parseChatResponse({ ...body({ content: "x" }), created: "yesterday" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(GatewayError);
      // Issue 26, item 10: a malformed upstream reply is the upstream's fault, not the client's.
      expect((error as GatewayError).status).toBe(502);
      expect((error as GatewayError).type).toBe("bad_gateway");
      expect((error as GatewayError).message).toMatch(
        /^Upstream sent an invalid chat response: created:/,
      );
    }
    fc.assert(
      fc.property(fc.anything(), (wire) => {
        try {
          parseChatResponse(wire);
        } catch (error) {
          expect(error).toBeInstanceOf(GatewayError);
        }
      }),
    );
  });

  it("n > 1: every choice is kept with its index", () => {
    const parsed = parseChatResponse({
      ...body({ content: "a" }),
      choices: [
        { index: 0, message: { role: "assistant", content: "a" }, finish_reason: "stop" },
        { index: 1, message: { role: "assistant", content: "b" }, finish_reason: "length" },
      ],
    });
    expect(
      outputsOf(parsed).map((c) => [c.index, c.message.parts, c.finishReason.unified]),
    ).toEqual([
      [0, [{ type: "text", text: "a" }], "stop"],
      [1, [{ type: "text", text: "b" }], "length"],
    ]);
  });
});

describe("a reply without choices (choices: [])", () => {
  const wire = {
    id: "c",
    object: "chat.completion",
    created: 1,
    model: "m",
    choices: [],
    usage: { prompt_tokens: 3, completion_tokens: 0, total_tokens: 3 },
  };

  it("parses as noOutput and renders as choices: [] again, streaming no finish", () => {
    const parsed = parseChatResponse(wire);
    expect(parsed.noOutput).toBe(true);
    expect(outputsOf(parsed)).toEqual([]);
    expect(renderChatResponse(parsed).choices).toEqual([]);
    const chunks: string[] = [];
    const encoder = chat.stream.encoder();
    for (const event of responseToEvents(parsed)) encoder.push(event, (m) => chunks.push(m.data));
    encoder.end((m) => chunks.push(m.data));
    // As before: the opening role chunk, and no finish.
    expect(chunks.some((c) => c.includes('"finish_reason":"'))).toBe(false);
  });

  it("moves a late choice 0 first and says so", () => {
    const warnings: Warning[] = [];
    const choice = (index: number) => ({
      index,
      message: { role: "assistant", content: `${index}` },
      finish_reason: "stop",
    });
    const parsed = parseChatResponse(
      { ...wire, choices: [choice(1), choice(0)] },
      { onWarning: (w) => warnings.push(w) },
    );
    expect(renderChatResponse(parsed).choices.map((c) => c.index)).toEqual([0, 1]);
    expect(warnings.map((w) => [w.type, w.feature])).toEqual([["mapped", "choices[1]"]]);
  });
});
