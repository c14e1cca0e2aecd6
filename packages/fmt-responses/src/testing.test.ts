import * as canonical from "@interlingua/core-types/testing";
import { fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import {
  interlinguaResponsesRequestSchema,
  interlinguaResponsesResultSchema,
} from "./responses-api.js";
import { responses } from "./responses-api-codec.js";
import { responsesRequestSchema, responsesResponseSchema } from "./responses-api-wire.js";
import { interlinguaResponseWire, requestWire, responseWire } from "./testing.js";

const { request, response } = responses;

describe("interlinguaResponses (the API reference's result shape)", () => {
  describe("wire arbitraries pass the wire schemas (the schema is the oracle)", () => {
    it("every generated request passes the request schema", () => {
      fc.assert(
        fc.property(requestWire, (w) => interlinguaResponsesRequestSchema.safeParse(w).success),
      );
    });
    it("every generated result passes the result schema", () => {
      fc.assert(
        fc.property(
          interlinguaResponseWire,
          (w) => interlinguaResponsesResultSchema.safeParse(w).success,
        ),
      );
    });
  });
});

describe("responses (OpenAI's Responses API)", () => {
  describe("wire arbitraries and rendered bodies pass the wire schemas (the schema is the oracle)", () => {
    it("every generated Responses object passes the schema", () => {
      fc.assert(fc.property(responseWire, (w) => responsesResponseSchema.safeParse(w).success));
    });
    it("every rendered request and result passes OpenAI's shape (the schemas are the oracle)", () => {
      fc.assert(
        fc.property(requestWire, canonical.response, (w, r) => {
          const body = request.render(request.parse(w));
          expect(responsesRequestSchema.safeParse(body).success).toBe(true);
          expect("max_tokens" in body).toBe(false);
          for (const tool of body.tools ?? []) expect("function" in tool).toBe(false);
          const rendered = response.render(r, { onWarning: () => {} });
          expect(responsesResponseSchema.safeParse(rendered).success).toBe(true);
        }),
      );
    });
  });
});
