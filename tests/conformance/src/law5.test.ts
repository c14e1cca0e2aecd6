import {
  accumulateStream,
  normalizeStreamEvents,
  responseToEvents,
  type StreamEvent,
} from "@interlingua/core-types";
import { fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import {
  codecs,
  commonUsage,
  pairs,
  requestContent,
  requestThrough,
  responseContent,
  throughWire,
} from "./codecs.js";
import { commonRequest, commonResponse } from "./common-content.js";

const quiet = { onWarning: () => {} };

// Tool call ids need no normalisation here, native pairs included: native carries a given id as
// `functionCall.id` and omits only the ids it generated itself (`gemini_call_*`), which the
// generator never produces. Recorded Gemini streams, whose calls have generated ids, go through
// the other formats in fixtures-across-formats.test.ts with their ids compared exactly.

describe.each(pairs)("law 5: %s -> canonical -> %s -> canonical loses nothing", (f, g) => {
  const F = codecs[f]!;
  const G = codecs[g]!;

  it("requests", () => {
    fc.assert(
      fc.property(commonRequest, (c0) => {
        const c1 = requestThrough(F, c0, quiet);
        const c2 = requestThrough(G, c1, quiet);
        expect(requestContent(c2)).toEqual(requestContent(c1));
      }),
    );
  });

  it("responses", () => {
    fc.assert(
      fc.property(commonResponse, (r0) => {
        const r1 = F.response.parse(F.response.render(r0, quiet));
        const r2 = G.response.parse(G.response.render(r1, quiet));
        expect(responseContent(r2)).toEqual(responseContent(r1));
      }),
    );
  });

  it("streams", async () => {
    await fc.assert(
      fc.asyncProperty(commonResponse, async (r0) => {
        const e1 = await throughWire(F, responseToEvents(r0));
        const e2 = await throughWire(G, e1);
        expect(streamContent(e2)).toEqual(streamContent(e1));
        expect(responseContent(accumulateStream(e2))).toEqual(
          responseContent(accumulateStream(e1)),
        );
      }),
      { numRuns: 50 },
    );
  });
});

/**
 * Stream content without framing: normal form, minus ids, timestamps and raw finish values, with
 * the usage counts every format carries (see `commonUsage`).
 */
function streamContent(events: StreamEvent[]) {
  return normalizeStreamEvents(events).map((e) => {
    if (e.type === "response-start") return { type: e.type, model: e.model };
    if (e.type === "finish") return { type: e.type, unified: e.finishReason.unified };
    if (e.type === "usage") return { type: e.type, usage: commonUsage(e.usage) };
    return e;
  });
}
