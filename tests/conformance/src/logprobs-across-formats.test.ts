import {
  accumulateStream,
  mapOutputs,
  type OutputLogprobs,
  type Request,
  type Response,
  responseToEvents,
} from "@interlingua/core-types";
import { fc, logprobValue } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { asJson, codecs, requestThrough, throughWire } from "./codecs.js";
import { commonRequest, commonResponse } from "./common-content.js";

// Issue 26, point 8: log probabilities cross between the formats that carry them (law 5 for
// logprobs): tokens, their values and alternatives; bytes, token ids and Gemini's mean are one
// format's detail each, so they are left out here.

const quiet = { onWarning: () => {} };
const candidate = fc.record({ token: fc.string({ maxLength: 6 }), logprob: logprobValue });
const logprobs: fc.Arbitrary<OutputLogprobs> = fc
  .array(fc.tuple(candidate, fc.array(candidate, { maxLength: 3 })), {
    minLength: 1,
    maxLength: 4,
  })
  .map((tokens) => ({ content: tokens.map(([t, topLogprobs]) => ({ ...t, topLogprobs })) }));

const withLogprobs: fc.Arbitrary<Response> = fc
  .tuple(commonResponse, logprobs)
  .map(([r, l]) => mapOutputs(r, (c) => ({ ...c, logprobs: l })));

const pairsOf = (names: string[]) =>
  names.flatMap((f) => names.filter((g) => g !== f).map((g) => [f, g] as const));

describe.each(pairsOf(["chat", "native", "responses"]))("%s -> %s keeps logprobs", (f, g) => {
  const F = codecs[f]!;
  const G = codecs[g]!;
  it("in replies", () => {
    fc.assert(
      fc.property(withLogprobs, (r0) => {
        const r1 = F.response.parse(F.response.render(r0, quiet));
        const r2 = G.response.parse(G.response.render(r1, quiet));
        expect(asJson(r2.logprobs)).toEqual(asJson(r0.logprobs));
      }),
    );
  });
});

describe.each(pairsOf(["chat", "native", "interlinguaResponses", "responses"]))(
  "%s -> %s streams keep logprobs",
  (f, g) => {
    it("accumulated", async () => {
      await fc.assert(
        fc.asyncProperty(withLogprobs, async (r0) => {
          const e1 = await throughWire(codecs[f]!, responseToEvents(r0));
          const e2 = await throughWire(codecs[g]!, e1);
          expect(asJson(accumulateStream(e2).logprobs)).toEqual(asJson(r0.logprobs));
        }),
        { numRuns: 30 },
      );
    });
  },
);

describe.each(pairsOf(["chat", "native", "interlinguaResponses", "responses"]))(
  "%s -> %s requests keep logprobs",
  (f, g) => {
    it("logprobs and topLogprobs", () => {
      fc.assert(
        fc.property(commonRequest, fc.integer({ min: 0, max: 20 }), (c, top) => {
          const c0: Request = { ...c, logprobs: true, topLogprobs: top };
          const c2 = requestThrough(codecs[g]!, requestThrough(codecs[f]!, c0, quiet), quiet);
          expect([c2.logprobs, c2.topLogprobs]).toEqual([true, top]);
        }),
      );
    });
  },
);

describe("messages has none", () => {
  it("a request's logprobs and a reply's are reported as dropped", () => {
    fc.assert(
      fc.property(commonRequest, withLogprobs, (c, r) => {
        const features: string[] = [];
        const warn = { onWarning: (w: { feature: string }) => features.push(w.feature) };
        codecs["messages"]!.request.render({ ...c, logprobs: true, topLogprobs: 2 }, warn);
        codecs["messages"]!.response.render(r, warn);
        expect(features).toEqual(
          expect.arrayContaining(["logprobs", "topLogprobs", "choices[0].logprobs"]),
        );
      }),
      { numRuns: 20 },
    );
  });
});
