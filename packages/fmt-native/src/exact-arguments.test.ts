import { parseWireJson, stringifyJsonKeepingNumbers } from "@interlingua/core-types";
import { exactArgumentsJson } from "@interlingua/core-types/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseNativeRequest } from "./parse-native-request.js";
import { renderNativeRequest } from "./render-native-request.js";

// Issue 26, item 3: `functionCall.args` objects carry tool arguments with their numbers exact, both ways.

/** A canonical request of a user turn and `turns`, rendered for Gemini as one JSON text. */
const renderedText = (turns: unknown[]): string =>
  stringifyJsonKeepingNumbers(
    renderNativeRequest({
      model: "m",
      system: [],
      messages: [{ role: "user", parts: [{ type: "text", text: "go" }] }, ...turns],
      sampling: { maxTokens: 100 },
      tools: [],
      stream: false,
    } as never),
  );

describe("native functionCall args keep exact numbers", () => {
  it("property: canonical arguments -> args -> canonical arguments, byte for byte", () => {
    fc.assert(
      fc.property(exactArgumentsJson, (args) => {
        const text = renderedText([
          {
            role: "assistant",
            parts: [{ type: "tool-call", id: "t1", name: "f", arguments: args }],
          },
        ]);
        expect(text).toContain(`"args":${args}`);
        const back = parseNativeRequest(parseWireJson(text), { model: "m" });
        const call = back.messages[1]!.parts[0] as { arguments: string };
        expect(call.arguments).toBe(args);
      }),
      { numRuns: 50 },
    );
  });

  it("property: a tool result's JSON text -> functionResponse.response -> text, byte for byte", () => {
    fc.assert(
      fc.property(exactArgumentsJson, fc.boolean(), (result, isError) => {
        const text = renderedText([
          {
            role: "assistant",
            parts: [{ type: "tool-call", id: "t1", name: "f", arguments: "{}" }],
          },
          {
            role: "tool",
            parts: [
              {
                type: "tool-result",
                toolCallId: "t1",
                name: "f",
                content: [{ type: "text", text: result }],
                ...(isError ? { isError } : {}),
              },
            ],
          },
        ]);
        expect(text).toContain(isError ? `"response":{"error":${result}}` : `"response":${result}`);
        const back = parseNativeRequest(parseWireJson(text), { model: "m" });
        const part = back.messages.at(-1)!.parts[0] as { content: { text: string }[] };
        expect(part.content[0]!.text).toBe(result);
      }),
      { numRuns: 50 },
    );
  });
});

// A client's functionResponse.response keeps its numbers as written (the render side is the
// property above: a chat client's `{"id":12345678901234567890}` once reached Gemini as ...567000).
describe("native functionResponse keeps exact numbers", () => {
  const result = '{"big":12345678901234567890,"f":0.1,"s":"héllo 🌍"}';
  it("reads a functionResponse with exact numbers back as the same text", () => {
    // As the gateway reads a client's body.
    const wire = parseWireJson(
      `{"contents":[{"role":"user","parts":[{"text":"go"}]},{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"f","response":${result}}}]}]}`,
    );
    const back = parseNativeRequest(wire, { model: "m" });
    const part = back.messages[2]!.parts[0] as { content: { text: string }[] };
    expect(part.content[0]!.text).toBe(result);
  });
});
