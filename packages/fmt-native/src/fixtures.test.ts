import { accumulateStream, type Response } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import {
  decodeFrames,
  firstSignature,
  fixtureFrames,
  readFixture,
  signaturesIn,
} from "../test/helpers.js";
import { normalizeNativeResponse } from "./normalize-native.js";
import { parseNativeResponse } from "./parse-native-response.js";
import { renderNativeResponse } from "./render-native-response.js";

const read = readFixture;
const frames = fixtureFrames;

const textModality = (count: number) => ({
  gemini: { inputTokensByModality: [{ modality: "TEXT", tokenCount: count }] },
});

describe("recorded streams decode to whole expected values", () => {
  it("google-text: one text part, its signature from the trailing empty part, final usage", () => {
    const signature = firstSignature(read("google-text.chunks.txt"));
    const expected: Response = {
      id: "bH6LaZW8Fp_3nsEPqtaSwQ4",
      model: "gemini-3-pro-preview",
      created: 0,
      message: {
        role: "assistant",
        parts: [
          {
            type: "text",
            text: 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y',
            signature,
          },
        ],
      },
      finishReason: { unified: "stop", raw: "STOP" },
      usage: {
        inputTokens: 9,
        outputTokens: 23 + 185,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        thinkingTokens: 185,
        providerExtras: textModality(9),
      },
    };
    expect(accumulateStream(decodeFrames(frames("google-text")))).toEqual(expected);
  });

  it("google-reasoning: text with the signature, thoughts counted in the output", () => {
    const signature = firstSignature(read("google-reasoning.chunks.txt"));
    expect(accumulateStream(decodeFrames(frames("google-reasoning")))).toEqual({
      id: "dX6LadKVC7SZ28oPr9yJoQs",
      model: "gemini-3-pro-preview",
      created: 0,
      message: {
        role: "assistant",
        parts: [
          {
            type: "text",
            text: 'There are **3** "r"s in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.',
            signature,
          },
        ],
      },
      finishReason: { unified: "stop", raw: "STOP" },
      usage: {
        inputTokens: 9,
        outputTokens: 29 + 256,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        thinkingTokens: 256,
        providerExtras: textModality(9),
      },
    } satisfies Response);
  });

  it.each([
    ["google-tool-call", "b36LacjwM668nsEP2tbsgQQ", 15, 45],
    ["google-tool-call-gemini3", "QHiLaa6LBrb8vdIPoNztsAg", 15, 804],
  ])(
    "%s: one whole call with its signature, STOP read as tool-calls",
    (name, id, out, thoughts) => {
      const signature = firstSignature(read(`${name}.chunks.txt`));
      expect(accumulateStream(decodeFrames(frames(name)))).toEqual({
        id,
        model: "gemini-3-pro-preview",
        created: 0,
        message: {
          role: "assistant",
          parts: [
            {
              type: "tool-call",
              id: `gemini_call_${id}_0_0`,
              name: "weather",
              arguments: '{"location":"San Francisco"}',
              signature,
            },
          ],
        },
        finishReason: { unified: "tool-calls", raw: "STOP" },
        usage: {
          inputTokens: 29,
          outputTokens: out + thoughts,
          cachedInputTokens: 0,
          cacheWriteTokens: 0,
          thinkingTokens: thoughts,
          providerExtras: textModality(29),
        },
      } satisfies Response);
    },
  );

  it("google-stream-no-args-tool-call: thoughts, a no-args call, three streamed calls", () => {
    const signature = firstSignature(read("google-stream-no-args-tool-call.chunks.txt"));
    const call = (n: number, name: string, args: string) => ({
      type: "tool-call" as const,
      id: `gemini_call__vr4aYiWEJnYodAPkujX0QM_0_${n}`,
      name,
      arguments: args,
    });
    expect(accumulateStream(decodeFrames(frames("google-stream-no-args-tool-call")))).toEqual({
      id: "_vr4aYiWEJnYodAPkujX0QM",
      model: "gemini-3-flash-preview",
      // createTime 2026-05-04T20:01:02.264968Z
      created: Date.UTC(2026, 4, 4, 20, 1, 2) / 1000,
      message: {
        role: "assistant",
        parts: [
          {
            type: "thinking",
            text:
              "**Processing User Requests**\n\nI've started by understanding the user's instructions. " +
              "Currently, I'm focusing on the initial steps: reading the specified theme using the " +
              'appropriate tool. Next, I plan to tackle reading the screens, beginning with screen "A," ' +
              'then proceeding with "B" and "C" in parallel as instructed.\n\n\n',
          },
          { ...call(0, "read_theme", "{}"), signature },
          call(1, "read_screen", '{"id":"A"}'),
          call(2, "read_screen", '{"id":"B"}'),
          call(3, "read_screen", '{"id":"C"}'),
        ],
      },
      finishReason: { unified: "tool-calls", raw: "STOP" },
      usage: {
        inputTokens: 249,
        outputTokens: 58 + 183,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        thinkingTokens: 183,
        providerExtras: textModality(249),
      },
    } satisfies Response);
  });
});

describe("recorded responses (.json twins) parse to whole expected values", () => {
  it("google-text.json", () => {
    const signature = firstSignature(read("google-text.json"));
    expect(parseNativeResponse(JSON.parse(read("google-text.json")))).toEqual({
      id: "Un6LacrVMcjUxs0PmJfWoQc",
      model: "gemini-3-pro-preview",
      created: 0,
      message: {
        role: "assistant",
        parts: [
          {
            type: "text",
            text: "There are **3** r's in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.",
            signature,
          },
        ],
      },
      finishReason: { unified: "stop", raw: "STOP" },
      usage: {
        inputTokens: 9,
        outputTokens: 28 + 244,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        thinkingTokens: 244,
        providerExtras: textModality(9),
      },
    } satisfies Response);
  });

  it("google-reasoning.json", () => {
    const signature = firstSignature(read("google-reasoning.json"));
    expect(parseNativeResponse(JSON.parse(read("google-reasoning.json")))).toEqual({
      id: "YH6LaZT7ENmPxN8P-r2J8Aw",
      model: "gemini-3-pro-preview",
      created: 0,
      message: {
        role: "assistant",
        parts: [
          {
            type: "text",
            text: 'There are **3** "r"s in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.',
            signature,
          },
        ],
      },
      finishReason: { unified: "stop", raw: "STOP" },
      usage: {
        inputTokens: 9,
        outputTokens: 29 + 282,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        thinkingTokens: 282,
        providerExtras: textModality(9),
      },
    } satisfies Response);
  });

  it.each([
    ["google-tool-call.json", "m36LaZGyCLz1xs0PtNSB-QU", 893],
    ["google-tool-call-gemini3.json", "JniLacKqGqH0xs0P0O776As", 1801],
  ])("%s", (file, id, thoughts) => {
    const signature = firstSignature(read(file));
    expect(parseNativeResponse(JSON.parse(read(file)))).toEqual({
      id,
      model: "gemini-3-pro-preview",
      created: 0,
      message: {
        role: "assistant",
        parts: [
          {
            type: "tool-call",
            id: `gemini_call_${id}_0_0`,
            name: "weather",
            arguments: '{"location":"San Francisco"}',
            signature,
          },
        ],
      },
      // The recorded finishMessage, kept as the finish reason's explanation.
      finishReason: {
        unified: "tool-calls",
        raw: "STOP",
        explanation: "Model generated function call(s).",
      },
      usage: {
        inputTokens: 29,
        outputTokens: 15 + thoughts,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        thinkingTokens: thoughts,
        providerExtras: textModality(29),
      },
    } satisfies Response);
  });

  it.each([
    "google-text.json",
    "google-reasoning.json",
    "google-tool-call.json",
    "google-tool-call-gemini3.json",
  ])("%s re-renders to its normal form (signatures byte for byte)", (file) => {
    const wire = JSON.parse(read(file));
    const rendered = renderNativeResponse(parseNativeResponse(wire));
    expect(rendered).toEqual(normalizeNativeResponse(wire));
    expect(signaturesIn(JSON.stringify(rendered))).toEqual(signaturesIn(read(file)));
  });
});
