import { parseWireJson, stringifyJsonKeepingNumbers } from "@interlingua/core-types";
import { exactArgumentsJson } from "@interlingua/core-types/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseNativeRequest } from "./parse-native-request.js";
import { renderNativeRequest } from "./render-native-request.js";

// Issue 26, item 3: `functionCall.args` objects carry tool arguments with their numbers exact, both ways.

describe("native functionCall args keep exact numbers", () => {
  it("property: canonical arguments -> args -> canonical arguments, byte for byte", () => {
    fc.assert(
      fc.property(exactArgumentsJson, (args) => {
        const wire = renderNativeRequest({
          model: "m",
          system: [],
          messages: [
            { role: "user", parts: [{ type: "text", text: "go" }] },
            {
              role: "assistant",
              parts: [{ type: "tool-call", id: "t1", name: "f", arguments: args }],
            },
          ],
          sampling: { maxTokens: 100 },
          tools: [],
          stream: false,
        } as never);
        const text = stringifyJsonKeepingNumbers(wire);
        expect(text).toContain(`"args":${args}`);
        const back = parseNativeRequest(parseWireJson(text), { model: "m" });
        const call = back.messages[1]!.parts[0] as { arguments: string };
        expect(call.arguments).toBe(args);
      }),
      { numRuns: 50 },
    );
  });
});
