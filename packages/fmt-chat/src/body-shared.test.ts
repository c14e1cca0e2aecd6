import { deepFrozen, fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { parseChatRequest } from "./parse-chat-request.js";
import { parseChatResponse } from "./parse-chat-response.js";
import { chatRequestWire, chatResponseWire } from "./testing.js";

describe("the parsers on a body they take unchanged", () => {
  it("does not write into the body, which the parsed data now shares", () => {
    fc.assert(
      fc.property(chatRequestWire, (wire) => {
        expect(parseChatRequest(deepFrozen(wire))).toEqual(parseChatRequest(structuredClone(wire)));
      }),
      { numRuns: 40 },
    );
  });

  it("the reply parser does not write into the reply either", () => {
    fc.assert(
      fc.property(chatResponseWire, (wire) => {
        expect(parseChatResponse(deepFrozen(wire))).toEqual(
          parseChatResponse(structuredClone(wire)),
        );
      }),
      { numRuns: 40 },
    );
  });
});
