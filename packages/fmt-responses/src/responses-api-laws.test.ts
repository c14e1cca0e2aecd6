import { accumulateStream, responseToEvents } from "@interlingua/core-types";
import * as canonical from "@interlingua/core-types/testing";
import { fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import {
  normalizeResponsesRequest,
  normalizeResponsesResponse,
} from "./normalize-responses-api.js";
import { decodeResponsesEvents } from "./parse-responses-stream.js";
import { encodeResponsesEvents } from "./render-responses-stream.js";
import { responses } from "./responses-api-codec.js";
import { responsesRequestSchema, responsesResponseSchema } from "./responses-api-wire.js";
import { expressibleRequest, expressibleResponse, requestWire, responseWire } from "./testing.js";

const { request, response } = responses;

describe("responses wire arbitraries and schemas", () => {
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

describe("responses law 1: wire -> canonical -> wire equals the normal form", () => {
  it("requests (either shape in, OpenAI's out)", () => {
    fc.assert(
      fc.property(requestWire, (w) => {
        expect(request.render(request.parse(w))).toEqual(normalizeResponsesRequest(w));
      }),
    );
  });
  it("results", () => {
    fc.assert(
      fc.property(responseWire, (w) => {
        expect(response.render(response.parse(w))).toEqual(normalizeResponsesResponse(w));
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

describe("responses law 2: canonical -> wire -> canonical is the identity", () => {
  it("requests", () => {
    fc.assert(
      fc.property(canonical.request.map(expressibleRequest), (r) => {
        expect(request.parse(request.render(r))).toEqual(r);
      }),
    );
  });
  it("results", () => {
    fc.assert(
      fc.property(canonical.response.map(expressibleResponse), (r) => {
        expect(response.parse(response.render(r))).toEqual(r);
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

describe("responses law 3 and law 4", () => {
  it("decode(encode(events)) equals events", () => {
    fc.assert(
      // Logprobs ride on output_text parts: where they stand among the events is not the
      // format's to keep (law 4 below carries them).
      fc.property(canonical.streamEvents(canonical.response.map(expressibleResponse)), (events) => {
        const ev = events.filter((e) => e.type !== "logprobs");
        expect(decodeResponsesEvents(encodeResponsesEvents(ev))).toEqual(ev);
      }),
    );
  });
  it("the stream accumulated equals the parsed result, and the result is the stream's final object", () => {
    fc.assert(
      fc.property(canonical.response.map(expressibleResponse), (r) => {
        const frames = encodeResponsesEvents(responseToEvents(r));
        const final = JSON.parse(frames[frames.length - 1]?.data ?? "{}").response;
        const rendered = response.render(r);
        const { output_text: _, ...object } = rendered;
        expect(object).toEqual(final);
        expect(accumulateStream(decodeResponsesEvents(frames))).toEqual(response.parse(rendered));
      }),
    );
  });
});
