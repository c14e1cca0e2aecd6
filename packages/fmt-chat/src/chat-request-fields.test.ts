import { zodObjectFieldPaths } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { chatRequestSchema } from "./chat-api.js";
import { chatRequestFields, untranslatedChatFields } from "./chat-request-fields.js";
import { parseChatRequest } from "./parse-chat-request.js";

// Item 5 of issue 20: every field of the chat request schema is mapped, warned or refused.

const schemaPaths = zodObjectFieldPaths(chatRequestSchema, new Set(["stream_options"]));

/** A value for each warned field, to prove its drop is reported. */
const samples: Record<string, unknown> = {
  logit_bias: { "50256": -100 },
  store: true,
  service_tier: "flex",
  prediction: { type: "content", content: "x" },
  modalities: ["text", "audio"],
  audio: { voice: "alloy", format: "mp3" },
  verbosity: "low",
  safety_identifier: "u-hash",
  prompt_cache_key: "k",
  prompt_cache_retention: "24h",
  functions: [{ name: "f", parameters: { type: "object" } }],
  function_call: "auto",
};

const base = { model: "txtA-5", messages: [{ role: "user", content: "hi" }] };

describe("chat request fields: mapped, warned or refused", () => {
  it("the table names every field of the request schema, and nothing else", () => {
    expect(schemaPaths.filter((p) => chatRequestFields[p] === undefined)).toEqual([]);
    expect(Object.keys(chatRequestFields).filter((p) => !schemaPaths.includes(p))).toEqual([]);
  });

  it.each(Object.entries(chatRequestFields).filter(([, action]) => action !== "mapped"))(
    "%s (%s) is reported when the request leaves this format",
    (path) => {
      expect(samples).toHaveProperty(path);
      const request = parseChatRequest({ ...base, [path]: samples[path] });
      expect(untranslatedChatFields(request)).toEqual([path]);
    },
  );

  it("unknown fields are reported; values that ask for nothing are not", () => {
    expect(untranslatedChatFields(parseChatRequest({ ...base, brand_new: 1 }))).toEqual([
      "brand_new",
    ]);
    expect(
      untranslatedChatFields(
        parseChatRequest({
          ...base,
          logprobs: false,
          store: false,
          max_tokens: 5,
          max_completion_tokens: 6,
        }),
      ),
    ).toEqual([]);
  });
});
