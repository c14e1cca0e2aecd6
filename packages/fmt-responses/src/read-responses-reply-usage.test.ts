import * as canonical from "@interlingua/core-types/testing";
import { hostileWireValue, parsedReplyUsage, withValueAt } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { parseResponsesResponse } from "./parse-responses-api-response.js";
import { readResponsesReplyUsage } from "./read-responses-reply-usage.js";
import { renderResponsesResponse } from "./render-responses-api-response.js";
import { responsesProtocol } from "./responses-protocol.js";
import { fc } from "./testing.js";

/** OpenAI Responses objects: the codec's render of any canonical response, as JSON. */
const responsesObject = canonical.response.map(
  (response) =>
    JSON.parse(
      JSON.stringify(renderResponsesResponse(response, { onWarning: () => {} })),
    ) as unknown,
);

const PATHS: readonly (readonly string[])[] = [
  ["usage"],
  ["usage", "input_tokens"],
  ["usage", "input_tokens_details"],
  ["usage", "input_tokens_details", "cached_tokens"],
  ["usage", "input_tokens_details", "cache_write_tokens"],
  ["usage", "output_tokens"],
  ["usage", "output_tokens_details"],
  ["usage", "output_tokens_details", "reasoning_tokens"],
  ["usage", "total_tokens"],
];

describe("readResponsesReplyUsage reads what the full parse reads", () => {
  it("on every rendered Responses object: the same usage, undefined exactly when none", () => {
    fc.assert(
      fc.property(responsesObject, (wire) => {
        expect(readResponsesReplyUsage(wire)).toStrictEqual(
          parsedReplyUsage(parseResponsesResponse, wire),
        );
      }),
    );
  });

  it("on a hostile usage field: undefined, or the very usage the full parse makes", () => {
    fc.assert(
      fc.property(
        responsesObject,
        fc.constantFrom(...PATHS),
        hostileWireValue,
        (wire, path, value) => {
          const broken = withValueAt(wire, path, value);
          expect(readResponsesReplyUsage(broken)).toStrictEqual(
            parsedReplyUsage(parseResponsesResponse, broken),
          );
        },
      ),
    );
  });

  it("is the openai-responses protocol's reader; an error body has no usage to read", () => {
    expect(responsesProtocol.replyUsage).toBe(readResponsesReplyUsage);
    expect(readResponsesReplyUsage({ error: { message: "no" } })).toBeUndefined();
    const usage = { input_tokens: 1, output_tokens: 2, total_tokens: 3 };
    expect(readResponsesReplyUsage({ output: null, usage })).toBeUndefined();
  });
});
