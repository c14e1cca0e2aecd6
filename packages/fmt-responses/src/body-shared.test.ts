import { deepFrozen, fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { parseResponsesRequest } from "./parse-responses-request.js";
import { parseInterlinguaResponsesResponse } from "./parse-responses-response.js";
import { interlinguaResponseWire, requestWire } from "./testing.js";

describe("the parsers on a body they take unchanged", () => {
  it("does not write into the body, which the parsed data now shares", () => {
    fc.assert(
      fc.property(requestWire, (wire) => {
        expect(parseResponsesRequest(deepFrozen(wire))).toEqual(
          parseResponsesRequest(structuredClone(wire)),
        );
      }),
      { numRuns: 40 },
    );
  });

  it("the reply parser does not write into the reply either", () => {
    fc.assert(
      fc.property(interlinguaResponseWire, (wire) => {
        expect(parseInterlinguaResponsesResponse(deepFrozen(wire))).toEqual(
          parseInterlinguaResponsesResponse(structuredClone(wire)),
        );
      }),
      { numRuns: 40 },
    );
  });
});
