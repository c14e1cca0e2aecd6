import {
  accumulateStream,
  outputsOf,
  type StreamEvent,
  streamCutEvent,
} from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { decodeFrames, firstSignature, fixtureFrames, readFixture } from "../test/helpers.js";
import { decodeNativeStream } from "./parse-native-stream.js";

const chunk = (parts: object[], extra: object = {}, usage?: object) => ({
  candidates: [{ content: { role: "model", parts }, index: 0, ...extra }],
  ...(usage ? { usageMetadata: usage } : {}),
  modelVersion: "gemini-3-pro-preview",
  responseId: "r1",
});

describe("usageMetadata on every frame, last wins", () => {
  it("emits usage when it changes, and the accumulated usage is the last frame's", () => {
    const events = decodeFrames([
      chunk(
        [{ text: "a" }],
        {},
        { promptTokenCount: 10, candidatesTokenCount: 1, totalTokenCount: 11 },
      ),
      chunk(
        [{ text: "b" }],
        {},
        { promptTokenCount: 10, candidatesTokenCount: 1, totalTokenCount: 11 },
      ),
      chunk(
        [{ text: "c" }],
        {},
        { promptTokenCount: 10, candidatesTokenCount: 3, totalTokenCount: 13 },
      ),
      chunk(
        [{ text: "" }],
        { finishReason: "STOP" },
        {
          promptTokenCount: 10,
          candidatesTokenCount: 4,
          thoughtsTokenCount: 6,
          cachedContentTokenCount: 8,
          totalTokenCount: 20,
        },
      ),
    ]);
    const usages = events.filter((e) => e.type === "usage").map((e) => e.usage);
    expect(usages).toEqual([
      {
        inputTokens: 10,
        outputTokens: 1,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        thinkingTokens: 0,
      },
      {
        inputTokens: 10,
        outputTokens: 3,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        thinkingTokens: 0,
      },
      {
        inputTokens: 10,
        outputTokens: 10,
        cachedInputTokens: 8,
        cacheWriteTokens: 0,
        thinkingTokens: 6,
      },
    ]);
    expect(accumulateStream(events).usage).toEqual({
      inputTokens: 10,
      outputTokens: 10,
      cachedInputTokens: 8,
      cacheWriteTokens: 0,
      thinkingTokens: 6,
    });
  });

  it("keeps the final usage of a recording that sends counts only on its last frame", () => {
    const events = decodeFrames(fixtureFrames("google-stream-no-args-tool-call"));
    const last = events.filter((e) => e.type === "usage").at(-1);
    expect(last).toEqual({
      type: "usage",
      usage: {
        inputTokens: 249,
        outputTokens: 241,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        thinkingTokens: 183,
        providerExtras: {
          gemini: { inputTokensByModality: [{ modality: "TEXT", tokenCount: 249 }] },
        },
      },
    });
  });
});

describe("usageMetadata that is not token counts", () => {
  it.each([
    ["negative", { promptTokenCount: -5_000_000, candidatesTokenCount: -5_000_000 }],
    ["fractional", { promptTokenCount: 10, candidatesTokenCount: 2.5 }],
    ["a string", { promptTokenCount: "10", candidatesTokenCount: 5 }],
    [
      "a negative thought count",
      { promptTokenCount: 10, candidatesTokenCount: 5, thoughtsTokenCount: -9e6 },
    ],
  ])("%s: the usage is unknown, not free", (_, usage) => {
    const events = decodeFrames([chunk([{ text: "ok" }], { finishReason: "STOP" }, usage)]);
    expect(events.filter((e) => e.type === "usage").at(-1)).toMatchObject({
      usage: { inputTokens: 0, outputTokens: 0, known: false },
    });
  });
});

describe("thoughtSignature on an empty text part kept", () => {
  it("attaches to the text part it ends (google-text recording)", () => {
    const events = decodeFrames(fixtureFrames("google-text"));
    const signature = firstSignature(readFixture("google-text.chunks.txt"));
    expect(events.filter((e) => e.type === "signature-delta")).toEqual([
      { type: "signature-delta", index: 0, signature },
    ]);
  });

  it("opens a part of its own when no part is open, and after a part that is signed", () => {
    const events = decodeFrames([
      chunk([{ text: "", thoughtSignature: "S1" }]),
      chunk([{ text: "", thoughtSignature: "S2" }]),
      chunk([{ text: "", thought: true, thoughtSignature: "S3" }], { finishReason: "STOP" }),
    ]);
    expect(events.slice(1)).toEqual([
      { type: "part-start", index: 0, kind: "text" },
      { type: "signature-delta", index: 0, signature: "S1" },
      { type: "part-end", index: 0 },
      { type: "part-start", index: 1, kind: "text" },
      { type: "signature-delta", index: 1, signature: "S2" },
      { type: "part-end", index: 1 },
      { type: "part-start", index: 2, kind: "thinking" },
      { type: "signature-delta", index: 2, signature: "S3" },
      { type: "part-end", index: 2 },
      { type: "finish", finishReason: { unified: "stop", raw: "STOP" } },
    ]);
  });

  it("an empty text part without a signature opens nothing", () => {
    const events = decodeFrames([chunk([{ text: "" }], { finishReason: "STOP" })]);
    expect(events.map((e) => e.type)).toEqual(["response-start", "finish"]);
  });
});

describe("part indices", () => {
  it("same-kind text continues a part; a change of kind starts a new one", () => {
    const events = decodeFrames([
      chunk([{ text: "think ", thought: true }]),
      chunk([{ text: "more", thought: true }]),
      chunk([{ text: "Hello" }]),
      chunk([{ text: " world" }]),
      chunk([{ functionCall: { name: "f", args: {} } }]),
      chunk([{ text: "after" }], { finishReason: "STOP" }),
    ]);
    expect(accumulateStream(events).message.parts).toEqual([
      { type: "thinking", text: "think more" },
      { type: "text", text: "Hello world" },
      { type: "tool-call", id: "gemini_call_r1_0_0", name: "f", arguments: "{}" },
      { type: "text", text: "after" },
    ]);
  });
});

describe("partialArgs/willContinue accumulation", () => {
  it("builds nested arguments from streamed fragments, strings spanning several frames", () => {
    const fc = (functionCall: object, extra: object = {}) => chunk([{ functionCall, ...extra }]);
    const frames = [
      fc({ name: "cook", willContinue: true }, { thoughtSignature: "SIG" }),
      fc({
        partialArgs: [{ jsonPath: "$.recipe.title", stringValue: "Lasa", willContinue: true }],
        willContinue: true,
      }),
      fc({
        partialArgs: [
          { jsonPath: "$.recipe.title", stringValue: 'gna "al forno"', willContinue: true },
        ],
        willContinue: true,
      }),
      fc({ partialArgs: [{ jsonPath: "$.recipe.title", stringValue: "" }], willContinue: true }),
      fc({
        partialArgs: [{ jsonPath: "$.recipe.ingredients[0].name", stringValue: "noodles" }],
        willContinue: true,
      }),
      fc({
        partialArgs: [{ jsonPath: "$.recipe.ingredients[0].grams", numberValue: 450 }],
        willContinue: true,
      }),
      fc({
        partialArgs: [
          { jsonPath: "$.recipe.ingredients[1].name", stringValue: "ricotta" },
          { jsonPath: "$.recipe.ingredients[1].fresh", boolValue: true },
        ],
        willContinue: true,
      }),
      fc({
        partialArgs: [{ jsonPath: "$.recipe.note", nullValue: "NULL_VALUE" }],
        willContinue: true,
      }),
      fc({ partialArgs: [{ jsonPath: "$['serves people']", numberValue: 4 }], willContinue: true }),
      fc({}),
      chunk([{ text: "" }], { finishReason: "STOP" }),
    ];
    const events = decodeFrames(frames);
    const deltas = events.filter((e) => e.type === "tool-arguments-delta").length;
    expect(deltas).toBeGreaterThan(5);
    const expected = {
      recipe: {
        title: 'Lasagna "al forno"',
        ingredients: [
          { name: "noodles", grams: 450 },
          { name: "ricotta", fresh: true },
        ],
        note: null,
      },
      "serves people": 4,
    };
    const [part] = accumulateStream(events).message.parts ?? [];
    expect(part).toEqual({
      type: "tool-call",
      id: "gemini_call_r1_0_0",
      name: "cook",
      arguments: JSON.stringify(expected),
      signature: "SIG",
    });
  });

  it("handles the Vertex shape: bare willContinue frames, a key after an array, the end beside the finish", () => {
    const arg = (jsonPath: string, stringValue: string, more = true) =>
      chunk([
        {
          functionCall: {
            partialArgs: [{ jsonPath, stringValue, ...(more ? { willContinue: true } : {}) }],
            willContinue: true,
          },
        },
      ]);
    const bare = chunk([{ functionCall: { willContinue: true } }]);
    const frames = [
      chunk([
        { functionCall: { name: "cookRecipe", willContinue: true }, thoughtSignature: "SIG" },
      ]),
      arg("$.recipe.ingredients[0].amount", "16 oz"),
      arg("$.recipe.ingredients[0].amount", "", false),
      arg("$.recipe.ingredients[0].name", "Lasagna noodles"),
      arg("$.recipe.ingredients[0].name", "", false),
      bare,
      arg("$.recipe.ingredients[1].amount", "1 lb"),
      arg("$.recipe.ingredients[1].amount", "", false),
      bare,
      arg("$.recipe.name", "Lasagna"),
      arg("$.recipe.name", "", false),
      arg("$.recipe.steps[0]", "Preheat oven to 375°F (190°C)."),
      arg("$.recipe.steps[0]", "", false),
      arg("$.recipe.steps[1]", "Cook noodles"),
      arg("$.recipe.steps[1]", "."),
      arg("$.recipe.steps[1]", "", false),
      chunk(
        [{ functionCall: {} }],
        { finishReason: "STOP" },
        { promptTokenCount: 31, candidatesTokenCount: 684, thoughtsTokenCount: 1026 },
      ),
    ];
    const response = accumulateStream(decodeFrames(frames));
    const [part] = response.message.parts ?? [];
    expect(part).toEqual({
      type: "tool-call",
      id: "gemini_call_r1_0_0",
      name: "cookRecipe",
      signature: "SIG",
      arguments: JSON.stringify({
        recipe: {
          ingredients: [{ amount: "16 oz", name: "Lasagna noodles" }, { amount: "1 lb" }],
          name: "Lasagna",
          steps: ["Preheat oven to 375°F (190°C).", "Cook noodles."],
        },
      }),
    });
    expect(response.finishReason).toEqual({ unified: "tool-calls", raw: "STOP" });
  });

  it('the no-args recording\'s streamed calls become {"id":"A"}, B and C', () => {
    const parts = accumulateStream(decodeFrames(fixtureFrames("google-stream-no-args-tool-call")))
      .message.parts;
    expect(parts?.map((p) => (p.type === "tool-call" ? [p.name, p.arguments] : p.type))).toEqual([
      "thinking",
      ["read_theme", "{}"],
      ["read_screen", '{"id":"A"}'],
      ["read_screen", '{"id":"B"}'],
      ["read_screen", '{"id":"C"}'],
    ]);
  });

  it("closes a streamed call whose terminal frame never came, at the finish", () => {
    const events = decodeFrames([
      chunk([{ functionCall: { name: "f", willContinue: true } }]),
      chunk([
        {
          functionCall: {
            partialArgs: [{ jsonPath: "$.a[2]", numberValue: 1 }],
            willContinue: true,
          },
        },
      ]),
      chunk([{ text: "" }], { finishReason: "STOP" }),
    ]);
    const [part] = accumulateStream(events).message.parts ?? [];
    expect(part).toMatchObject({ type: "tool-call", arguments: '{"a":[null,null,1]}' });
  });
});

describe("whole function calls", () => {
  it("become tool-call-start, the signature, one arguments delta and part-end", () => {
    const events = decodeFrames([
      chunk([
        { functionCall: { name: "weather", args: { city: "Paris" } }, thoughtSignature: "S" },
        { functionCall: { name: "time", id: "given-id" } },
      ]),
    ]);
    expect(events.slice(1)).toEqual([
      { type: "tool-call-start", index: 0, id: "gemini_call_r1_0_0", name: "weather" },
      { type: "signature-delta", index: 0, signature: "S" },
      { type: "tool-arguments-delta", index: 0, delta: '{"city":"Paris"}' },
      { type: "part-end", index: 0 },
      { type: "tool-call-start", index: 1, id: "given-id", name: "time" },
      { type: "tool-arguments-delta", index: 1, delta: "{}" },
      { type: "part-end", index: 1 },
      // No finishReason came: the stream was cut (core-types stream-cut.ts).
      streamCutEvent(),
    ]);
  });
});

describe("STOP with function calls -> tool-calls (stream)", () => {
  it("reads STOP after a call as tool-calls, keeping the raw STOP", () => {
    const events = decodeFrames(fixtureFrames("google-tool-call"));
    expect(events.find((e) => e.type === "finish")).toEqual({
      type: "finish",
      finishReason: { unified: "tool-calls", raw: "STOP" },
    });
  });
});

describe("other frames", () => {
  it("an error frame becomes an error event, the stream goes on", () => {
    const events = decodeFrames([
      chunk([{ text: "partial" }]),
      { error: { code: 429, message: "Resource exhausted", status: "RESOURCE_EXHAUSTED" } },
      "not json",
    ]);
    const errors = events.filter((e) => e.type === "error");
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatchObject({ error: { status: 429, type: "rate_limit_error" } });
    expect(errors[1]).toMatchObject({ error: { status: 502 } });
  });

  it("the recorded 429 body as a frame becomes a rate-limit error event", () => {
    const body = JSON.parse(readFixture("google-429-retry-info.json"));
    expect(decodeFrames([body])).toEqual([
      {
        type: "error",
        error: {
          status: 429,
          type: "rate_limit_error",
          message: "You exceeded your current quota, please check your plan.",
        },
      },
    ]);
  });

  it("keeps candidates apart by index and reports prompt feedback once", () => {
    const feedback = { blockReason: "SAFETY", safetyRatings: [] };
    const events = decodeFrames([
      { promptFeedback: feedback, responseId: "r" },
      {
        promptFeedback: feedback,
        candidates: [
          { content: { parts: [{ text: "zero" }] }, index: 0 },
          { content: { parts: [{ text: "one" }] }, index: 1, finishReason: "MAX_TOKENS" },
        ],
      },
    ]);
    expect(events.filter((e) => e.type === "provider-extras")).toStrictEqual([
      { type: "provider-extras", providerExtras: { gemini: { promptFeedback: feedback } } },
    ]);
    const response = accumulateStream(events);
    expect(outputsOf(response).map((c) => [c.index, c.message.parts, c.finishReason])).toEqual([
      [0, [{ type: "text", text: "zero" }], { unified: "other" }],
      [1, [{ type: "text", text: "one" }], { unified: "length", raw: "MAX_TOKENS" }],
    ]);
  });

  it("runs as a TransformStream, emitting per frame", async () => {
    const input = new ReadableStream({
      start(controller) {
        for (const line of fixtureFrames("google-text")) controller.enqueue({ data: line });
        controller.close();
      },
    });
    const events: StreamEvent[] = [];
    for await (const event of input.pipeThrough(decodeNativeStream())) events.push(event);
    // A chunk's usage comes before its content (the first prompt count reaches start frames).
    expect(events.map((e) => e.type)).toEqual([
      "response-start",
      "usage",
      "part-start",
      "text-delta",
      "usage",
      "text-delta",
      "signature-delta",
      "part-end",
      "finish",
    ]);
  });
});

describe("a blocked prompt (promptFeedback.blockReason, no candidates)", () => {
  it("is never an empty success: stream and whole response both finish content-filter", async () => {
    const { parseNativeResponse } = await import("./parse-native-response.js");
    const { renderNativeResponse } = await import("./render-native-response.js");
    const wire = {
      promptFeedback: { blockReason: "PROHIBITED_CONTENT" },
      usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 },
      modelVersion: "gemini-2.5-pro",
      responseId: "abc",
    };
    const whole = parseNativeResponse(wire);
    expect(outputsOf(whole)).toStrictEqual([
      {
        index: 0,
        message: { role: "assistant", parts: [] },
        finishReason: { unified: "content-filter", raw: "PROHIBITED_CONTENT" },
      },
    ]);
    // Same-format rendering writes it back as it came: no candidate.
    const back = renderNativeResponse(whole);
    expect(back.candidates).toBeUndefined();
    expect(back.promptFeedback).toStrictEqual(wire.promptFeedback);
    const events = decodeFrames([wire]);
    expect(events.at(-1)).toStrictEqual({
      type: "finish",
      finishReason: { unified: "content-filter", raw: "PROHIBITED_CONTENT" },
    });
    expect(outputsOf(accumulateStream(events))).toStrictEqual(outputsOf(whole));
  });
});
