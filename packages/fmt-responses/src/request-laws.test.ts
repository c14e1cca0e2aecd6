import * as canonical from "@interlingua/core-types/testing";
import { fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import {
  normalizeResponsesRequest,
  normalizeResponsesResponse,
} from "./normalize-responses-api.js";
import { normalizeInterlinguaResponsesRequest } from "./normalize-responses-request.js";
import { parseResponsesRequest } from "./parse-responses-request.js";
import { renderInterlinguaResponsesRequest } from "./render-responses-request.js";
import { renderInterlinguaResponsesResponse } from "./render-responses-response.js";
import { responses } from "./responses-api-codec.js";
import {
  expressibleInterlinguaRequest,
  expressibleRequest,
  requestWire,
  responseWire,
} from "./testing.js";

// One block per codec: both parse the same requests and differ in how they render them. The
// fixed-point and never-throws properties check a request and a result together, so they stay
// whole here.
const { request, response } = responses;

describe("interlinguaResponses (the API reference's result shape)", () => {
  describe("law 1: render(parse(w)) equals normalize(w)", () => {
    it("requests", () => {
      fc.assert(
        fc.property(requestWire, (w) => {
          expect(renderInterlinguaResponsesRequest(parseResponsesRequest(w))).toEqual(
            normalizeInterlinguaResponsesRequest(w),
          );
        }),
      );
    });
    it("the normal form is a fixed point", () => {
      fc.assert(
        fc.property(requestWire, (w) => {
          const normal = normalizeInterlinguaResponsesRequest(w);
          expect(normalizeInterlinguaResponsesRequest(normal)).toEqual(normal);
        }),
      );
    });
  });

  describe("law 2: parse(render(c)) equals c", () => {
    // Restrictions (testing.ts): expressibleInterlinguaRequest / expressibleInterlinguaResponse
    // document each one.
    it("requests", () => {
      fc.assert(
        fc.property(canonical.request.map(expressibleInterlinguaRequest), (request) => {
          expect(parseResponsesRequest(renderInterlinguaResponsesRequest(request))).toEqual(
            request,
          );
        }),
      );
    });
    it("render reports, never throws, on any canonical value it can express", () => {
      fc.assert(
        fc.property(canonical.request, canonical.response, (request, response) => {
          const safe = { ...request, sampling: { ...request.sampling, n: 1 } };
          renderInterlinguaResponsesRequest(safe, { onWarning: () => {} });
          renderInterlinguaResponsesResponse(response, { onWarning: () => {} });
        }),
      );
    });
  });
});

describe("responses (OpenAI's Responses API)", () => {
  describe("law 1: render(parse(w)) equals normalize(w)", () => {
    it("requests (either shape in, OpenAI's out)", () => {
      fc.assert(
        fc.property(requestWire, (w) => {
          expect(request.render(request.parse(w))).toEqual(normalizeResponsesRequest(w));
        }),
      );
    });
    it("the normal forms are fixed points", () => {
      fc.assert(
        fc.property(requestWire, responseWire, (w, r) => {
          const normal = normalizeResponsesRequest(w);
          expect(normalizeResponsesRequest(normal)).toEqual(normal);
          const normalResult = normalizeResponsesResponse(r);
          expect(normalizeResponsesResponse(normalResult)).toEqual(normalResult);
        }),
      );
    });
  });

  describe("law 2: parse(render(c)) equals c", () => {
    it("requests", () => {
      fc.assert(
        fc.property(canonical.request.map(expressibleRequest), (r) => {
          expect(request.parse(request.render(r))).toEqual(r);
        }),
      );
    });
    it("render reports, never throws, on any canonical value", () => {
      fc.assert(
        fc.property(canonical.request, canonical.response, (req, res) => {
          request.render({ ...req, sampling: { ...req.sampling, n: 1 } }, { onWarning: () => {} });
          response.render(res, { onWarning: () => {} });
        }),
      );
    });
  });
});
