import { deepFrozen, fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { parseNativeRequest } from "./parse-native-request.js";
import { parseNativeResponse } from "./parse-native-response.js";
import { nativeRequestWire, nativeResponseWire } from "./testing.js";

describe("the parsers on a body they take unchanged", () => {
  it("does not write into the body, which the parsed data now shares", () => {
    fc.assert(
      fc.property(nativeRequestWire, (wire) => {
        const options = { model: "txtC-3-pro-preview" };
        expect(parseNativeRequest(deepFrozen(wire), options)).toEqual(
          parseNativeRequest(structuredClone(wire), options),
        );
      }),
    );
  });

  it("keeps a tool entry's declarations before its built-in tools, as sent in any order", () => {
    const contents = [{ role: "user", parts: [{ text: "hi" }] }];
    const declarations = [{ name: "f", parameters: { type: "object" } }];
    const request = parseNativeRequest(
      { contents, tools: [{ googleSearch: {}, functionDeclarations: declarations }] },
      { model: "m" },
    );
    expect(request.tools.map((tool) => tool.type)).toEqual(["function", "web_search"]);
  });

  it("the reply parser does not write into the reply either", () => {
    fc.assert(
      fc.property(nativeResponseWire, (wire) => {
        expect(parseNativeResponse(deepFrozen(wire))).toEqual(
          parseNativeResponse(structuredClone(wire)),
        );
      }),
      { numRuns: 40 },
    );
  });
});
