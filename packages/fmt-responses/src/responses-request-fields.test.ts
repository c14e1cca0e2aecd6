import { zodObjectFieldPaths } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { parseResponsesRequest } from "./parse-responses-request.js";
import { interlinguaResponsesRequestSchema } from "./responses-api.js";
import { responsesRequestFields, untranslatedResponsesFields } from "./responses-request-fields.js";

// Item 5 of issue 20: every field of the responses request schema is mapped, warned or refused.

const schemaPaths = zodObjectFieldPaths(
  interlinguaResponsesRequestSchema,
  new Set(["reasoning", "text"]),
);

/** A value for each warned or refused field, to prove it is reported. */
const samples: Record<string, unknown> = {
  store: true,
  previous_response_id: "resp_1",
  conversation: "conv_1",
  prompt: { id: "pmpt_1" },
  background: true,
  include: ["reasoning.encrypted_content"],
  truncation: "auto",
  service_tier: "flex",
  max_tool_calls: 3,
  safety_identifier: "u",
  prompt_cache_key: "k",
  stream_options: { include_obfuscation: false },
};

const base = { model: "txtA-5", input: "hi" };

describe("responses request fields: mapped, warned or refused", () => {
  it("the table names every field of the request schema, and nothing else", () => {
    expect(schemaPaths.filter((p) => responsesRequestFields[p] === undefined)).toEqual([]);
    expect(Object.keys(responsesRequestFields).filter((p) => !schemaPaths.includes(p))).toEqual([]);
  });

  it.each(Object.entries(responsesRequestFields).filter(([, action]) => action !== "mapped"))(
    "%s (%s) is reported on the way to any upstream",
    (path) => {
      expect(samples).toHaveProperty(path);
      const request = parseResponsesRequest({ ...base, [path]: samples[path] });
      expect(untranslatedResponsesFields(request)).toEqual([path]);
    },
  );

  it("leftover reasoning and text sub-fields are reported; no-op values are not", () => {
    const request = parseResponsesRequest({
      ...base,
      reasoning: { effort: "low", summary: "detailed" },
      text: { verbosity: "low" },
      store: false,
      background: false,
    });
    expect(untranslatedResponsesFields(request)).toEqual(["reasoning.summary", "text.verbosity"]);
  });

  it("include's logprobs entry is the canonical logprobs; other entries stay and are reported", () => {
    const request = parseResponsesRequest({
      ...base,
      include: ["message.output_text.logprobs", "reasoning.encrypted_content"],
      top_logprobs: 2,
    });
    expect(request).toMatchObject({ logprobs: true, topLogprobs: 2 });
    expect(untranslatedResponsesFields(request)).toEqual(["include"]);
    const only = parseResponsesRequest({ ...base, include: ["message.output_text.logprobs"] });
    expect(only.logprobs).toBe(true);
    expect(untranslatedResponsesFields(only)).toEqual([]);
  });

  it("an allowed_tools the canonical allowed holds is not reported; another is", () => {
    const choice = (tools: unknown[]) =>
      parseResponsesRequest({
        ...base,
        tool_choice: { type: "allowed_tools", mode: "auto", tools },
      });
    const custom = choice([{ type: "custom", name: "patch" }]);
    expect(custom.toolChoice).toEqual({ type: "auto", allowed: ["patch"] });
    expect(untranslatedResponsesFields(custom)).toEqual([]);
    const hosted = choice([{ type: "function", name: "f" }, { type: "image_generation" }]);
    expect(untranslatedResponsesFields(hosted)).toEqual(["tool_choice"]);
  });
});
