import { fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { aliasNativeRequest } from "./native-aliases.js";
import { nativeRequestSchema, nativeResponseSchema } from "./native-api.js";
import { nativeRequestWire, nativeResponseWire } from "./testing.js";

describe("wire arbitraries pass the wire schemas (the schema is the oracle)", () => {
  it("every generated request passes the request schema", () => {
    fc.assert(
      fc.property(nativeRequestWire, (wire) => {
        expect(nativeRequestSchema.safeParse(aliasNativeRequest(wire)).success).toBe(true);
      }),
    );
  });
  it("every generated response passes the response schema", () => {
    fc.assert(
      fc.property(nativeResponseWire, (wire) => {
        expect(nativeResponseSchema.safeParse(wire).success).toBe(true);
      }),
    );
  });
});
