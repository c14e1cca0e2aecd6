import { describe, expect, it } from "vitest";
import type * as z from "zod/mini";
import {
  alternativeSchema,
  assistantPartSchema,
  cacheControlSchema,
  finishReasonSchema,
  messageSchema,
  promptFeedbackSchema,
  requestSchema,
  responseFormatSchema,
  responseSchema,
  safetyRatingSchema,
  safetySettingSchema,
  samplingSchema,
  streamEventSchema,
  thinkingConfigSchema,
  toolChoiceSchema,
  toolSchema,
  usageSchema,
  userPartSchema,
} from "./index.js";
import * as arb from "./testing.js";
import { fc } from "./testing.js";

const cases: [string, fc.Arbitrary<unknown>, z.ZodMiniType][] = [
  ["cacheControl", arb.cacheControl, cacheControlSchema],
  ["userPart", arb.userPart, userPartSchema],
  ["assistantPart", arb.assistantPart, assistantPartSchema],
  ["message", arb.message, messageSchema],
  ["sampling", arb.sampling, samplingSchema],
  ["tool", arb.tool, toolSchema],
  ["toolChoice", arb.toolChoice, toolChoiceSchema],
  ["thinkingConfig", arb.thinkingConfig, thinkingConfigSchema],
  ["responseFormat", arb.responseFormat, responseFormatSchema],
  ["safetySetting", arb.safetySetting, safetySettingSchema],
  ["safetyRating", arb.safetyRating, safetyRatingSchema],
  ["promptFeedback", arb.promptFeedback, promptFeedbackSchema],
  ["request", arb.request, requestSchema],
  ["finishReason", arb.finishReason, finishReasonSchema],
  ["usage", arb.usage, usageSchema],
  ["alternative", arb.alternative, alternativeSchema],
  ["response", arb.response, responseSchema],
];

describe("every generated canonical value passes its schema", () => {
  for (const [name, arbitrary, schema] of cases) {
    it(name, () => {
      fc.assert(
        fc.property(arbitrary, (value) => {
          const parsed = schema.safeParse(value);
          if (!parsed.success) throw new Error(parsed.error.message);
          // Parsing is the identity on valid values: no defaults injected, nothing stripped.
          expect(parsed.data).toEqual(value);
        }),
      );
    });
  }

  it("streamEvents", () => {
    fc.assert(
      fc.property(arb.streamEvents(), (events) => {
        for (const event of events) expect(streamEventSchema.safeParse(event).success).toBe(true);
      }),
    );
  });
});

describe("schemas refuse what the model cannot mean", () => {
  it.each([
    ["cache ttl other than 5m/1h", cacheControlSchema, { type: "ephemeral", ttl: "10m" }],
    ["temperature above 2", samplingSchema, { temperature: 2.5 }],
    ["top_p above 1", samplingSchema, { topP: 1.1 }],
    ["penalty below -2", samplingSchema, { presencePenalty: -3 }],
    ["n of zero", samplingSchema, { n: 0 }],
    ["fractional max tokens", samplingSchema, { maxTokens: 1.5 }],
    ["tool choice without name", toolChoiceSchema, { type: "tool" }],
    [
      "negative token count",
      usageSchema,
      {
        inputTokens: -1,
        outputTokens: 0,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        thinkingTokens: 0,
      },
    ],
    [
      "tool result in a user turn",
      messageSchema,
      { role: "user", parts: [{ type: "tool-result", toolCallId: "a", content: [] }] },
    ],
  ] as const)("%s", (_name, schema, value) => {
    expect(schema.safeParse(value).success).toBe(false);
  });
});
