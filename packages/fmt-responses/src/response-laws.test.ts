import * as canonical from "@interlingua/core-types/testing";
import { fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { normalizeResponsesResponse } from "./normalize-responses-api.js";
import { normalizeInterlinguaResponsesResponse } from "./normalize-responses-response.js";
import { parseInterlinguaResponsesResponse } from "./parse-responses-response.js";
import { renderInterlinguaResponsesResponse } from "./render-responses-response.js";
import { responses } from "./responses-api-codec.js";
import {
  expressibleInterlinguaResponse,
  expressibleResponse,
  interlinguaResponseWire,
  responseWire,
} from "./testing.js";

// One block per codec: interlinguaResponses renders the API reference's chat-like result,
// responses a Responses object.
const { response } = responses;

describe("interlinguaResponses (the API reference's result shape)", () => {
  describe("law 1: render(parse(w)) equals normalize(w)", () => {
    it("results", () => {
      fc.assert(
        fc.property(interlinguaResponseWire, (w) => {
          expect(renderInterlinguaResponsesResponse(parseInterlinguaResponsesResponse(w))).toEqual(
            normalizeInterlinguaResponsesResponse(w),
          );
        }),
      );
    });
  });

  describe("law 2: parse(render(c)) equals c", () => {
    // Restrictions (testing.ts): expressibleInterlinguaRequest / expressibleInterlinguaResponse
    // document each one.
    it("results", () => {
      fc.assert(
        fc.property(canonical.response.map(expressibleInterlinguaResponse), (response) => {
          expect(
            parseInterlinguaResponsesResponse(renderInterlinguaResponsesResponse(response)),
          ).toEqual(response);
        }),
      );
    });
  });
});

describe("responses (OpenAI's Responses API)", () => {
  describe("law 1: render(parse(w)) equals normalize(w)", () => {
    it("results", () => {
      fc.assert(
        fc.property(responseWire, (w) => {
          expect(response.render(response.parse(w))).toEqual(normalizeResponsesResponse(w));
        }),
      );
    });
  });

  describe("law 2: parse(render(c)) equals c", () => {
    it("results", () => {
      fc.assert(
        fc.property(canonical.response.map(expressibleResponse), (r) => {
          expect(response.parse(response.render(r))).toEqual(r);
        }),
      );
    });
  });
});
