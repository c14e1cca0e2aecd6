import type { Response, StreamEvent } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { parseChatRequest } from "./parse-chat-request.js";
import { parseChatResponse } from "./parse-chat-response.js";
import { decodeChatMessages } from "./parse-chat-stream.js";
import { renderChatRequest } from "./render-chat-request.js";
import { renderChatResponse } from "./render-chat-response.js";
import { encodeChatEvents } from "./render-chat-stream.js";

// Issue 26, point 8: logprobs are canonical, so they cross formats instead of being dropped.

const hi = { token: "Hi", logprob: -0.25, bytes: [72, 105] };
const tokens = [{ ...hi, topLogprobs: [hi, { token: "Hey", logprob: -1.5 }] }];
const wireTokens = [
  {
    token: "Hi",
    logprob: -0.25,
    bytes: [72, 105],
    top_logprobs: [
      { token: "Hi", logprob: -0.25, bytes: [72, 105] },
      { token: "Hey", logprob: -1.5, bytes: null },
    ],
  },
];

describe("chat logprobs", () => {
  it("a request's logprobs and top_logprobs are canonical, and rendered back", () => {
    const request = parseChatRequest({
      model: "txtA-5",
      messages: [{ role: "user", content: "hi" }],
      logprobs: true,
      top_logprobs: 2,
    });
    expect(request).toMatchObject({ logprobs: true, topLogprobs: 2 });
    expect(request.extras).toBeUndefined();
    expect(renderChatRequest(request)).toMatchObject({ logprobs: true, top_logprobs: 2 });
  });

  it("choices[].logprobs.content <-> canonical tokens; refusal tokens follow content ones", () => {
    const response = parseChatResponse({
      id: "c",
      object: "chat.completion",
      created: 1,
      model: "txtA-5",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "Hi" },
          logprobs: { content: wireTokens, refusal: [{ token: "No", logprob: -2, bytes: null }] },
          finish_reason: "stop",
        },
      ],
    });
    expect(response.logprobs).toEqual({
      content: [...tokens, { token: "No", logprob: -2, topLogprobs: [] }],
    });
    expect(renderChatResponse(response).choices[0]?.logprobs).toEqual({
      content: [...wireTokens, { token: "No", logprob: -2, bytes: null, top_logprobs: [] }],
      refusal: null,
    });
  });

  it("a mean (Gemini's avgLogprobs) and token ids have no chat field: reported as dropped", () => {
    const warnings: string[] = [];
    const response: Response = {
      id: "c",
      model: "m",
      created: 1,
      message: { role: "assistant", parts: [{ type: "text", text: "Hi" }] },
      finishReason: { unified: "stop" },
      logprobs: { content: [{ ...tokens[0]!, tokenId: 7 }], average: -0.25 },
      usage: {
        inputTokens: 1,
        outputTokens: 1,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        thinkingTokens: 0,
      },
    };
    const wire = renderChatResponse(response, { onWarning: (w) => warnings.push(w.feature) });
    expect(wire.choices[0]?.logprobs?.content).toEqual(wireTokens);
    expect(warnings).toEqual(["choices[0].logprobs.average", "choices[0].logprobs.tokenId"]);
  });

  it("stream chunks carry logprobs both ways", () => {
    const chunk = (choice: Record<string, unknown>) => ({
      data: JSON.stringify({
        id: "c",
        object: "chat.completion.chunk",
        created: 1,
        model: "txtA-5",
        choices: [{ index: 0, finish_reason: null, ...choice }],
      }),
    });
    const events = decodeChatMessages([
      chunk({ delta: { role: "assistant", content: "" }, logprobs: null }),
      chunk({ delta: { content: "Hi" }, logprobs: { content: wireTokens, refusal: null } }),
      chunk({ delta: {}, finish_reason: "stop" }),
      { data: "[DONE]" },
    ]);
    expect(events.filter((e) => e.type === "logprobs")).toEqual([
      { type: "logprobs", content: tokens },
    ]);
    const encoded = encodeChatEvents(events).map((m) => m.data);
    expect(encoded.filter((d) => d.includes('"logprobs"'))).toEqual([
      `{"id":"c","object":"chat.completion.chunk","created":1,"model":"txtA-5","choices":[{"index":0,"delta":{},"logprobs":${JSON.stringify({ content: wireTokens, refusal: null })},"finish_reason":null}]}`,
    ]);
    const again: StreamEvent[] = decodeChatMessages(encodeChatEvents(events));
    expect(again.filter((e) => e.type === "logprobs")).toEqual([
      { type: "logprobs", content: tokens },
    ]);
  });
});
