import type { Request, Response } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import {
  interlinguaResponses,
  parseInterlinguaResponsesResponse,
  parseResponsesRequest,
  parseResponsesResponse,
  renderInterlinguaResponsesRequest,
  renderInterlinguaResponsesResponse,
  renderResponsesRequest,
  renderResponsesResponse,
  responses,
} from "./index.js";
import type {
  InterlinguaResponsesRequestWire,
  InterlinguaResponsesResponseWire,
  ResponsesRequestWire,
  ResponsesResponseWire,
} from "./schemas.js";

// Issue 26 point 10: the plain names are OpenAI's Responses API, the spec's chat-like shape says
// "Interlingua" in every name, and the two results have types that cannot stand for each other.

const request: Request = {
  model: "m",
  system: [],
  messages: [{ role: "user", parts: [{ type: "text", text: "Hi" }] }],
  sampling: { maxTokens: 10 },
  tools: [{ type: "function", name: "f", description: "d", parameters: { type: "object" } }],
  stream: false,
};

const response: Response = {
  id: "resp_1",
  model: "m",
  created: 0,
  finishReason: { unified: "stop", raw: "stop" },
  message: { role: "assistant", parts: [{ type: "text", text: "Hello" }] },
  usage: {
    inputTokens: 1,
    outputTokens: 1,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    thinkingTokens: 0,
  },
};

describe("`responses` is OpenAI's Responses API", () => {
  it("is named so, and its functions are the plain ones", () => {
    expect(responses.format).toBe("responses");
    expect(responses.request.parse).toBe(parseResponsesRequest);
    expect(responses.request.render).toBe(renderResponsesRequest);
    expect(responses.response.parse).toBe(parseResponsesResponse);
    expect(responses.response.render).toBe(renderResponsesResponse);
  });

  it("renders flat tools, max_output_tokens and a Responses object (output[])", () => {
    const body: ResponsesRequestWire = responses.request.render(request);
    expect(body.tools?.[0]).toMatchObject({ type: "function", name: "f" });
    expect(body.max_output_tokens).toBe(10);
    expect(body).not.toHaveProperty("max_tokens");
    const object: ResponsesResponseWire = responses.response.render(response);
    expect(object.output_text).toBe("Hello");
    expect(object).not.toHaveProperty("choices");
  });
});

describe("`interlinguaResponses` is the API reference's chat-like shape", () => {
  it("is named so, and its functions say Interlingua", () => {
    expect(interlinguaResponses.format).toBe("interlingua-responses");
    expect(interlinguaResponses.request.parse).toBe(parseResponsesRequest);
    expect(interlinguaResponses.request.render).toBe(renderInterlinguaResponsesRequest);
    expect(interlinguaResponses.response.parse).toBe(parseInterlinguaResponsesResponse);
    expect(interlinguaResponses.response.render).toBe(renderInterlinguaResponsesResponse);
  });

  it("renders nested tools, max_tokens and a result with choices[]", () => {
    const body: InterlinguaResponsesRequestWire = interlinguaResponses.request.render(request);
    expect(body.tools?.[0]).toMatchObject({ type: "function", function: { name: "f" } });
    expect(body.max_tokens).toBe(10);
    const data: InterlinguaResponsesResponseWire = interlinguaResponses.response.render(response);
    expect(data.choices[0]?.message.content).toBe("Hello");
    expect(data).not.toHaveProperty("output");
  });
});

it("the two results cannot be mistaken for each other (checked by tsc)", () => {
  const object = responses.response.render(response);
  const data = interlinguaResponses.response.render(response);
  // @ts-expect-error a Responses object is not the spec's result
  const asData: InterlinguaResponsesResponseWire = object;
  // @ts-expect-error the spec's result is not a Responses object
  const asObject: ResponsesResponseWire = data;
  expect([asData, asObject]).toHaveLength(2);
});
