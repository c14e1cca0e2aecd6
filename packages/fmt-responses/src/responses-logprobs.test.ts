import type { Request, Response } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { parseResponsesResponse } from "./parse-responses-api-response.js";
import { parseResponsesRequest } from "./parse-responses-request.js";
import { decodeResponsesEvents } from "./parse-responses-stream.js";
import { renderResponsesRequest } from "./render-responses-api-request.js";
import { renderResponsesResponse } from "./render-responses-api-response.js";
import { encodeResponsesEvents } from "./render-responses-stream.js";

// Issue 26, point 8: Responses logprobs (`include: ["message.output_text.logprobs"]`,
// `top_logprobs`, output_text `logprobs`) are canonical, so they cross formats.

const request: Request = {
  model: "txtA-5",
  system: [],
  messages: [{ role: "user", parts: [{ type: "text", text: "hi" }] }],
  sampling: {},
  tools: [],
  stream: false,
};
const tokens = [
  {
    token: "Hi",
    logprob: -0.25,
    bytes: [72, 105],
    topLogprobs: [{ token: "Hey", logprob: -1.5, bytes: [72, 101, 121] }],
  },
];
const wireTokens = [
  {
    token: "Hi",
    logprob: -0.25,
    bytes: [72, 105],
    top_logprobs: [{ token: "Hey", logprob: -1.5, bytes: [72, 101, 121] }],
  },
];
const response: Response = {
  id: "resp_1",
  model: "txtA-5",
  created: 1,
  message: { role: "assistant", parts: [{ type: "text", text: "Hi" }] },
  finishReason: { unified: "stop", raw: "completed" },
  logprobs: { content: tokens },
  usage: {
    inputTokens: 1,
    outputTokens: 1,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    thinkingTokens: 0,
  },
};

describe("Responses logprobs", () => {
  it("a request asks with include and top_logprobs, other include entries kept", () => {
    const wire = renderResponsesRequest({
      ...request,
      logprobs: true,
      topLogprobs: 2,
      extras: { responses: { include: ["reasoning.encrypted_content"] } },
    });
    expect(wire).toMatchObject({
      top_logprobs: 2,
      include: ["reasoning.encrypted_content", "message.output_text.logprobs"],
    });
    expect(parseResponsesRequest(wire)).toMatchObject({ logprobs: true, topLogprobs: 2 });
  });

  it("output_text logprobs <-> the choice's tokens", () => {
    const object = renderResponsesResponse(response);
    const message = object.output[0] as unknown as { content: Record<string, unknown>[] };
    expect(message.content[0]?.["logprobs"]).toEqual(wireTokens);
    expect(parseResponsesResponse(object).logprobs).toEqual({ content: tokens });
  });

  it("streams, logprobs asked for: each delta frame carries the tokens that follow its text", () => {
    const events = [
      { type: "response-start", id: "resp_1", model: "txtA-5", created: 1 },
      { type: "text-delta", index: 0, delta: "Hi" },
      { type: "logprobs", content: tokens },
      { type: "text-delta", index: 0, delta: "!" },
      { type: "part-end", index: 0 },
      { type: "finish", finishReason: { unified: "stop" } },
    ] as const;
    const deltas = (options = {}) =>
      encodeResponsesEvents(events, options)
        .map((f) => JSON.parse(f.data))
        .filter((f) => f.type === "response.output_text.delta")
        .map((f) => [f.delta, f.logprobs]);
    // OpenAI's ResponseTextDeltaEvent logprob: token, logprob, top_logprobs of {token, logprob}.
    const eventTokens = [
      { token: "Hi", logprob: -0.25, top_logprobs: [{ token: "Hey", logprob: -1.5 }] },
    ];
    expect(deltas({ logprobs: true })).toEqual([
      ["Hi", eventTokens],
      ["!", []],
    ]);
    // Not asked for: written as they come, with no tokens.
    expect(deltas()).toEqual([
      ["Hi", []],
      ["!", []],
    ]);
  });

  it("streams: deltas' logprobs are read; the encoder writes them on the finished text", () => {
    const frames = encodeResponsesEvents([
      { type: "response-start", id: "resp_1", model: "txtA-5", created: 1 },
      { type: "text-delta", index: 0, delta: "Hi" },
      { type: "logprobs", content: tokens },
      { type: "part-end", index: 0 },
      { type: "finish", finishReason: { unified: "stop" } },
    ]);
    const done = frames
      .map((f) => JSON.parse(f.data))
      .find((f) => f.type === "response.content_part.done");
    expect(done.part.logprobs).toEqual(wireTokens);
    expect(decodeResponsesEvents(frames).filter((e) => e.type === "logprobs")).toEqual([
      { type: "logprobs", content: tokens },
    ]);
    // OpenAI's deltas carry their tokens (without bytes); the finished part does not repeat them.
    const delta = (extra: Record<string, unknown>) => ({
      data: JSON.stringify({
        type: "response.output_text.delta",
        item_id: "msg_1",
        output_index: 0,
        content_index: 0,
        delta: "Hi",
        ...extra,
      }),
    });
    const events = decodeResponsesEvents([
      {
        data: JSON.stringify({
          type: "response.created",
          response: { id: "resp_1", model: "txtA-5", created_at: 1, output: [] },
        }),
      },
      delta({ logprobs: [{ token: "Hi", logprob: -0.25, top_logprobs: [] }] }),
      {
        data: JSON.stringify({
          type: "response.content_part.done",
          item_id: "msg_1",
          output_index: 0,
          content_index: 0,
          part: { type: "output_text", text: "Hi", annotations: [], logprobs: wireTokens },
        }),
      },
    ]);
    expect(events.filter((e) => e.type === "logprobs")).toEqual([
      { type: "logprobs", content: [{ token: "Hi", logprob: -0.25, topLogprobs: [] }] },
    ]);
  });

  it("the mean and token ids have no Responses field: reported as dropped", () => {
    const warnings: string[] = [];
    renderResponsesResponse(
      {
        ...response,
        logprobs: { content: [{ ...tokens[0]!, tokenId: 3 }], average: -0.25 },
      },
      { onWarning: (w) => warnings.push(w.feature) },
    );
    expect(warnings).toEqual(["logprobs.average", "logprobs.tokenId"]);
  });
});
