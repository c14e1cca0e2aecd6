import type { Request, Response, StreamEvent } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { warnings } from "../test/helpers.js";
import { renderMessagesRequest } from "./render-messages-request.js";
import { renderMessagesResponse } from "./render-messages-response.js";
import { MessagesStreamEncoder } from "./render-messages-stream.js";

// Issue 26, point 8: Anthropic has no log probabilities; asking for them is reported as dropped
// (so strict mode refuses), and logprobs in a reply from elsewhere are reported, not lost silently.

const request: Request = {
  model: "txtB-sonnet-4-6",
  system: [],
  messages: [{ role: "user", parts: [{ type: "text", text: "hi" }] }],
  sampling: { maxTokens: 100 },
  tools: [],
  stream: false,
};

const response: Response = {
  id: "r",
  model: "m",
  created: 0,
  message: { role: "assistant", parts: [{ type: "text", text: "Hi" }] },
  finishReason: { unified: "stop" },
  logprobs: { content: [{ token: "Hi", logprob: -0.1, topLogprobs: [] }] },
  usage: {
    inputTokens: 1,
    outputTokens: 1,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    thinkingTokens: 0,
  },
};

describe("logprobs toward Anthropic", () => {
  it("a request asking for them is sent without, each field reported as dropped", () => {
    const { list, onWarning } = warnings();
    const wire = renderMessagesRequest(
      { ...request, logprobs: true, topLogprobs: 3 },
      { onWarning },
    );
    expect(JSON.stringify(wire)).not.toContain("logprob");
    expect(list.map((w) => [w.type, w.feature])).toEqual([
      ["dropped", "logprobs"],
      ["dropped", "topLogprobs"],
    ]);
  });

  it("values that ask for nothing are not reported", () => {
    const { list, onWarning } = warnings();
    renderMessagesRequest({ ...request, logprobs: false, topLogprobs: 0 }, { onWarning });
    expect(list).toEqual([]);
  });

  it("a reply's logprobs are reported as dropped, streamed or not", () => {
    const { list, onWarning } = warnings();
    renderMessagesResponse(response, { onWarning });
    const encoder = new MessagesStreamEncoder(onWarning);
    const sent: unknown[] = [];
    const events: StreamEvent[] = [
      { type: "response-start", id: "r", model: "m", created: 0 },
      { type: "logprobs", content: [{ token: "Hi", logprob: -0.1, topLogprobs: [] }] },
      { type: "finish", finishReason: { unified: "stop" } },
    ];
    for (const event of events) {
      encoder.push(event, (m) => sent.push(m));
    }
    encoder.end((m) => sent.push(m));
    expect(JSON.stringify(sent)).not.toContain("logprob");
    expect(list.map((w) => [w.type, w.feature])).toEqual([
      ["dropped", "choices[0].logprobs"],
      ["dropped", "logprobs"],
    ]);
  });
});
