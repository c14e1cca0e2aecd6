import type { Request, Warning } from "@interlingua/core-types";
import { accumulateStream } from "@interlingua/core-types";
import { isGatewayError } from "@interlingua/errors";
import { describe, expect, it } from "vitest";
import { decodeFrames, fixtureFrames, readFixture } from "../test/helpers.js";
import { parseNativeRequest } from "./parse-native-request.js";
import { parseNativeResponse } from "./parse-native-response.js";
import { renderNativeRequest } from "./render-native-request.js";

const history = {
  contents: [
    { role: "user", parts: [{ text: "Weather in Paris and Rome, and the time?" }] },
    {
      role: "model",
      parts: [
        { functionCall: { name: "weather", args: { city: "Paris" } }, thoughtSignature: "SIG" },
        { functionCall: { name: "weather", args: { city: "Rome" } } },
        { functionCall: { name: "time", args: {} } },
      ],
    },
    {
      role: "user",
      parts: [
        { functionResponse: { name: "time", response: { result: "12:00" } } },
        { functionResponse: { name: "weather", response: { result: "sunny" } } },
        { functionResponse: { name: "weather", response: { error: "no data" } } },
      ],
    },
  ],
};

describe("stable ids and result mapping by name and order", () => {
  it("gives calls without ids stable ids and matches responses to them by name, in order", () => {
    const request = parseNativeRequest(history, { model: "txtC-2.5-pro" });
    expect(request.messages.slice(1)).toEqual([
      {
        role: "assistant",
        parts: [
          {
            type: "tool-call",
            id: "gemini_call_0",
            name: "weather",
            arguments: '{"city":"Paris"}',
            signature: "SIG",
          },
          { type: "tool-call", id: "gemini_call_1", name: "weather", arguments: '{"city":"Rome"}' },
          { type: "tool-call", id: "gemini_call_2", name: "time", arguments: "{}" },
        ],
      },
      {
        role: "tool",
        parts: [
          {
            type: "tool-result",
            toolCallId: "gemini_call_2",
            name: "time",
            content: [{ type: "text", text: "12:00" }],
          },
          {
            type: "tool-result",
            toolCallId: "gemini_call_0",
            name: "weather",
            content: [{ type: "text", text: "sunny" }],
          },
          {
            type: "tool-result",
            toolCallId: "gemini_call_1",
            name: "weather",
            content: [{ type: "text", text: "no data" }],
            isError: true,
          },
        ],
      },
    ]);
    // Parsing twice gives the same ids; rendering leaves the invented ids out again.
    expect(parseNativeRequest(history, { model: "txtC-2.5-pro" })).toEqual(request);
    expect(renderNativeRequest(request).contents).toEqual(history.contents);
  });

  it("keeps ids the upstream or client gave", () => {
    const request = parseNativeRequest(
      {
        contents: [
          { role: "model", parts: [{ functionCall: { name: "f", args: {}, id: "call-9" } }] },
          {
            role: "user",
            parts: [{ functionResponse: { name: "f", id: "call-9", response: {} } }],
          },
        ],
      },
      { model: "m" },
    );
    expect(request.messages.map((m) => m.parts[0])).toEqual([
      { type: "tool-call", id: "call-9", name: "f", arguments: "{}" },
      { type: "tool-result", toolCallId: "call-9", name: "f", content: [] },
    ]);
  });

  it("renders results from other formats by the name of the call with that id", () => {
    const request: Request = {
      model: "txtC-2.5-pro",
      system: [],
      sampling: {},
      tools: [],
      stream: false,
      messages: [
        {
          role: "assistant",
          parts: [
            { type: "tool-call", id: "call_a", name: "weather", arguments: '{"city":"Paris"}' },
            { type: "tool-call", id: "call_b", name: "time", arguments: "" },
          ],
        },
        {
          role: "tool",
          parts: [
            {
              type: "tool-result",
              toolCallId: "call_b",
              content: [{ type: "text", text: "noon" }],
            },
            {
              type: "tool-result",
              toolCallId: "call_a",
              content: [{ type: "text", text: '{"temp":21,"sky":"clear"}' }],
            },
          ],
        },
      ],
    };
    expect(renderNativeRequest(request).contents).toEqual([
      {
        role: "model",
        parts: [
          { functionCall: { name: "weather", args: { city: "Paris" }, id: "call_a" } },
          { functionCall: { name: "time", args: {}, id: "call_b" } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "time", response: { result: "noon" }, id: "call_b" } },
          {
            functionResponse: {
              name: "weather",
              response: { temp: 21, sky: "clear" },
              id: "call_a",
            },
          },
        ],
      },
    ]);
  });

  it("refuses a result that names no tool when no earlier call has its id", () => {
    const request: Request = {
      model: "m",
      system: [],
      sampling: {},
      tools: [],
      stream: false,
      messages: [{ role: "tool", parts: [{ type: "tool-result", toolCallId: "x", content: [] }] }],
    };
    try {
      renderNativeRequest(request);
      expect.unreachable();
    } catch (error) {
      expect(isGatewayError(error)).toBe(true);
      expect(error).toMatchObject({ status: 400, param: "messages[0].parts[0].name" });
    }
  });

  it("gives a response's calls the same ids streamed or whole (response id, candidate, n)", () => {
    const streamed = accumulateStream(
      decodeFrames(fixtureFrames("google-stream-no-args-tool-call")),
    );
    const ids = streamed.message.parts.flatMap((p) => (p.type === "tool-call" ? [p.id] : []));
    expect(ids).toEqual([0, 1, 2, 3].map((n) => `gemini_call__vr4aYiWEJnYodAPkujX0QM_0_${n}`));
    const whole = parseNativeResponse(JSON.parse(readFixture("google-tool-call.json")));
    expect(whole.message.parts[0]).toMatchObject({
      id: "gemini_call_m36LaZGyCLz1xs0PtNSB-QU_0_0",
    });
  });

  it("wraps and unwraps function response bodies", () => {
    const warnings: Warning[] = [];
    const request: Request = {
      model: "m",
      system: [],
      sampling: {},
      tools: [],
      stream: false,
      messages: [
        {
          role: "tool",
          parts: [
            {
              type: "tool-result",
              toolCallId: "a",
              name: "f",
              content: [
                { type: "text", text: "part one, " },
                { type: "text", text: "part two" },
                { type: "image", source: { type: "base64", mediaType: "image/png", data: "AAAA" } },
              ],
            },
            {
              type: "tool-result",
              toolCallId: "b",
              name: "f",
              isError: true,
              content: [{ type: "text", text: '{"code":7}' }],
            },
          ],
        },
      ],
    };
    expect(renderNativeRequest(request, { onWarning: (w) => warnings.push(w) }).contents).toEqual([
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              name: "f",
              id: "a",
              response: { result: "part one, part two" },
              parts: [{ inlineData: { mimeType: "image/png", data: "AAAA" } }],
            },
          },
          { functionResponse: { name: "f", id: "b", response: { error: { code: 7 } } } },
        ],
      },
    ]);
    expect(warnings).toEqual([
      expect.objectContaining({ type: "mapped", feature: "messages[0].parts[0].content" }),
    ]);
  });
});
