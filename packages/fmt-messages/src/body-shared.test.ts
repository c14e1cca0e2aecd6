import { deepFrozen, fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { parseMessagesRequest } from "./parse-messages-request.js";
import { parseMessagesResponse } from "./parse-messages-response.js";
import { wireRequest, wireResponse } from "./testing.js";

describe("the parsers on a body they take unchanged", () => {
  it("does not write into the body, which the parsed data now shares", () => {
    fc.assert(
      fc.property(wireRequest, (wire) => {
        expect(parseMessagesRequest(deepFrozen(wire))).toEqual(
          parseMessagesRequest(structuredClone(wire)),
        );
      }),
    );
  });

  it("the reply parser does not write into the reply either", () => {
    fc.assert(
      fc.property(wireResponse, (wire) => {
        expect(parseMessagesResponse(deepFrozen(wire))).toEqual(
          parseMessagesResponse(structuredClone(wire)),
        );
      }),
      { numRuns: 40 },
    );
  });
});
