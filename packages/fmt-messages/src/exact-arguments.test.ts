import { parseWireJson, stringifyJsonKeepingNumbers } from "@interlingua/core-types";
import { exactArgumentsJson } from "@interlingua/core-types/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseMessagesRequest } from "./parse-messages-request.js";
import { renderMessagesRequest } from "./render-messages-request.js";

// Issue 26, item 3: `input` objects carry tool arguments with their numbers exact, both ways.

describe("messages tool_use input keeps exact numbers", () => {
  it("property: canonical arguments -> input -> canonical arguments, byte for byte", () => {
    fc.assert(
      fc.property(exactArgumentsJson, (args) => {
        const wire = renderMessagesRequest({
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
        expect(text).toContain(`"input":${args}`);
        const back = parseMessagesRequest(parseWireJson(text));
        const call = back.messages[1]!.parts[0] as { arguments: string };
        expect(call.arguments).toBe(args);
      }),
      { numRuns: 50 },
    );
  });
});
