import { type IndexedOutput, mapOutputs, type Response } from "@interlingua/core-types";
import * as arb from "@interlingua/core-types/testing";
import { fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { withNativeLogprobs } from "../test/helpers.js";
import { nativeFinishReasonTable, parseNativeFinishReason } from "./map-native-finish-reason.js";
import { normalizeNativeResponse } from "./normalize-native.js";
import { parseNativeResponse } from "./parse-native-response.js";
import { renderNativeResponse } from "./render-native-response.js";
import { nativeResponseWire } from "./testing.js";

describe("law 1: render(parse(w)) equals normalize(w)", () => {
  it("responses", () => {
    fc.assert(
      fc.property(nativeResponseWire, (wire) => {
        expect(renderNativeResponse(parseNativeResponse(wire))).toEqual(
          normalizeNativeResponse(wire),
        );
      }),
    );
  });
});

const omit = <T extends object, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> => {
  const out = { ...value };
  for (const key of keys) delete out[key];
  return out;
};

// Law 2's responses: no redacted thinking, stop sequence, cache-write split or extras; finish
// reasons are Gemini's own and logprobs what Gemini carries (withNativeLogprobs).
const expressibleResponse: fc.Arbitrary<Response> = fc
  .tuple(
    arb.response,
    fc.array(fc.constantFrom(...Object.keys(nativeFinishReasonTable)), {
      minLength: 3,
      maxLength: 3,
    }),
  )
  .map(([response, raws]) => {
    const usage = omit(response.usage, "cacheWrite5mTokens", "cacheWrite1hTokens");
    usage.inputTokens -= usage.cacheWriteTokens;
    usage.cacheWriteTokens = 0;
    const mapped = mapOutputs(response, (choice, i): IndexedOutput => {
      const parts = choice.message.parts.filter((p) => p.type !== "redacted-thinking");
      const raw = raws[i % raws.length] as string;
      return {
        ...withNativeLogprobs(omit(choice, "stopSequence")),
        message: { role: "assistant", parts },
        finishReason: parseNativeFinishReason(
          raw,
          parts.some((p) => p.type === "tool-call"),
        ),
      };
    });
    return { ...omit(mapped, "extras"), usage };
  });

describe("law 2: parse(render(c)) equals c", () => {
  it("responses", () => {
    fc.assert(
      fc.property(expressibleResponse, (response) => {
        const wire = JSON.parse(JSON.stringify(renderNativeResponse(response)));
        expect(parseNativeResponse(wire)).toEqual(response);
      }),
    );
  });
});
