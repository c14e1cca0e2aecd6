import type { Response } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { decodeFrames, encodeEvents } from "../test/helpers.js";
import { parseNativeRequest } from "./parse-native-request.js";
import { parseNativeResponse } from "./parse-native-response.js";
import { renderNativeRequest } from "./render-native-request.js";
import { renderNativeResponse } from "./render-native-response.js";

// Issue 26, point 8: Gemini's logprobs (generationConfig.responseLogprobs / logprobs, candidates'
// logprobsResult and avgLogprobs) are canonical, so they reach and come from other formats.

const logprobsResult = {
  topCandidates: [
    {
      candidates: [
        { token: "Hi", tokenId: 9, logProbability: -0.25 },
        { token: "Hey", tokenId: 10, logProbability: -1.5 },
      ],
    },
    { candidates: [{ token: "!", logProbability: -0.5 }] },
  ],
  chosenCandidates: [
    { token: "Hi", tokenId: 9, logProbability: -0.25 },
    // proto3 JSON leaves out a zero log probability.
    { token: "!" },
  ],
  logProbabilitySum: -0.25,
};
const tokens = [
  {
    token: "Hi",
    logprob: -0.25,
    tokenId: 9,
    topLogprobs: [
      { token: "Hi", logprob: -0.25, tokenId: 9 },
      { token: "Hey", logprob: -1.5, tokenId: 10 },
    ],
  },
  { token: "!", logprob: 0, topLogprobs: [{ token: "!", logprob: -0.5 }] },
];

describe("Gemini logprobs", () => {
  it("generationConfig.responseLogprobs / logprobs are canonical and rendered back", () => {
    const request = parseNativeRequest(
      {
        contents: [{ role: "user", parts: [{ text: "hi" }] }],
        generationConfig: { responseLogprobs: true, logprobs: 2 },
      },
      { model: "txtC-2.5-pro" },
    );
    expect(request).toMatchObject({ logprobs: true, topLogprobs: 2 });
    expect(request.extras).toBeUndefined();
    expect(renderNativeRequest(request).generationConfig).toEqual({
      responseLogprobs: true,
      logprobs: 2,
    });
  });

  it("logprobsResult and avgLogprobs <-> canonical tokens and mean", () => {
    const response = parseNativeResponse({
      candidates: [
        {
          content: { role: "model", parts: [{ text: "Hi!" }] },
          finishReason: "STOP",
          index: 0,
          logprobsResult,
          avgLogprobs: -0.125,
        },
      ],
    });
    expect(response.logprobs).toEqual({ content: tokens, average: -0.125 });
    const candidate = renderNativeResponse(response).candidates?.[0];
    expect(candidate?.logprobsResult).toEqual({
      topCandidates: logprobsResult.topCandidates,
      chosenCandidates: [
        { token: "Hi", tokenId: 9, logProbability: -0.25 },
        { token: "!", logProbability: 0 },
      ],
    });
    expect(candidate?.avgLogprobs).toBe(-0.125);
  });

  it("token bytes have no Gemini field: reported as dropped", () => {
    const warnings: string[] = [];
    const response: Response = {
      id: "r",
      model: "m",
      created: 0,
      message: { role: "assistant", parts: [{ type: "text", text: "Hi" }] },
      finishReason: { unified: "stop" },
      logprobs: { content: [{ token: "Hi", logprob: -1, bytes: [72, 105], topLogprobs: [] }] },
      usage: {
        inputTokens: 1,
        outputTokens: 1,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        thinkingTokens: 0,
      },
    };
    const wire = renderNativeResponse(response, { onWarning: (w) => warnings.push(w.feature) });
    expect(wire.candidates?.[0]?.logprobsResult).toEqual({
      chosenCandidates: [{ token: "Hi", logProbability: -1 }],
    });
    expect(warnings).toEqual(["choices[0].logprobs.bytes"]);
  });

  it("stream chunks carry logprobs both ways; the last mean stands", () => {
    const chunk = (extra: Record<string, unknown>) => ({
      candidates: [{ index: 0, ...extra }],
      responseId: "r",
      modelVersion: "gemini-2.5-pro",
    });
    const events = decodeFrames([
      chunk({
        content: { role: "model", parts: [{ text: "Hi" }] },
        logprobsResult: { chosenCandidates: [{ token: "Hi", logProbability: -0.25 }] },
      }),
      chunk({
        content: { role: "model", parts: [{ text: "!" }] },
        logprobsResult: { chosenCandidates: [{ token: "!", logProbability: -0.5 }] },
        avgLogprobs: -0.375,
        finishReason: "STOP",
      }),
    ]);
    const logprobs = events.filter((e) => e.type === "logprobs");
    expect(logprobs).toEqual([
      { type: "logprobs", content: [{ token: "Hi", logprob: -0.25, topLogprobs: [] }] },
      {
        type: "logprobs",
        content: [{ token: "!", logprob: -0.5, topLogprobs: [] }],
        average: -0.375,
      },
    ]);
    const frames = encodeEvents(logprobs).map((m) => JSON.parse(m.data));
    expect(frames.map((f) => f.candidates[0])).toEqual([
      { logprobsResult: { chosenCandidates: [{ token: "Hi", logProbability: -0.25 }] }, index: 0 },
      {
        logprobsResult: { chosenCandidates: [{ token: "!", logProbability: -0.5 }] },
        avgLogprobs: -0.375,
        index: 0,
      },
    ]);
    expect(decodeFrames(frames).filter((e) => e.type === "logprobs")).toEqual(logprobs);
  });
});
