import { describe, expect, it } from "vitest";
import { nativeProtocol } from "./native-protocol.js";

const count = nativeProtocol.tokenCount!;
const contents = [{ role: "user", parts: [{ text: "hi" }] }];

describe("nativeProtocol.tokenCount: Gemini's countTokens", () => {
  it("reads {contents} and the generateContentRequest wrapper alike", () => {
    expect(count.generation({ contents })).toEqual({ contents });
    const wrapped = {
      model: "models/m",
      contents,
      systemInstruction: { parts: [{ text: "s" }] },
    };
    expect(count.generation({ generateContentRequest: wrapped })).toEqual(wrapped);
    const request = nativeProtocol.codec.request.parse({
      ...count.generation({ contents }),
      model: "m",
    });
    expect(request.messages).toHaveLength(1);
  });

  it("always sends the wrapper, naming the upstream model", () => {
    const generation = { contents, tools: [{ functionDeclarations: [] }] };
    expect(count.request(generation, "gemini-x")).toEqual({
      generateContentRequest: {
        contents,
        tools: [{ functionDeclarations: [] }],
        model: "models/gemini-x",
      },
    });
    expect(count.path("a/b")).toBe("/v1beta/models/a%2Fb:countTokens");
  });

  it("reads {totalTokens} and answers in it", () => {
    expect(count.read({ totalTokens: 12, promptTokensDetails: [] })).toBe(12);
    expect(count.read({ error: { code: 400 } })).toBeUndefined();
    expect(count.read([])).toBeUndefined();
    expect(count.reply(5)).toEqual({ totalTokens: 5 });
  });
});
