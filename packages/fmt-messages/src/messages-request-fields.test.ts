import { zodObjectFieldPaths } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { messagesRequestSchema } from "./messages-api.js";
import { messagesRequestFields, untranslatedMessagesFields } from "./messages-request-fields.js";
import { parseMessagesRequest } from "./parse-messages-request.js";

// Item 5 of issue 20: every field of the messages request schema is mapped, warned or refused.

const schemaPaths = zodObjectFieldPaths(messagesRequestSchema);

/** A value for each warned field, to prove its drop is reported. */
const samples: Record<string, unknown> = {
  service_tier: "standard_only",
  inference_geo: "us",
  container: "container_1",
  mcp_servers: [{ type: "url", url: "https://mcp.example.com", name: "m" }],
  context_management: { edits: [] },
  output_format: { type: "json_schema", schema: { type: "object" } },
};

const base = {
  model: "txtB-sonnet-4-6",
  max_tokens: 100,
  messages: [{ role: "user", content: "hi" }],
};

describe("messages request fields: mapped, warned or refused", () => {
  it("the table names every field of the request schema, and nothing else", () => {
    expect(schemaPaths.filter((p) => messagesRequestFields[p] === undefined)).toEqual([]);
    expect(Object.keys(messagesRequestFields).filter((p) => !schemaPaths.includes(p))).toEqual([]);
  });

  it.each(Object.entries(messagesRequestFields).filter(([, action]) => action !== "mapped"))(
    "%s (%s) is reported when the request leaves this format",
    (path) => {
      expect(samples).toHaveProperty(path);
      const request = parseMessagesRequest({ ...base, [path]: samples[path] });
      expect(untranslatedMessagesFields(request)).toEqual([path]);
    },
  );

  it("output_config: effort and a json_schema format are mapped; anything else is reported", () => {
    const request = parseMessagesRequest({
      ...base,
      thinking: { type: "adaptive" },
      output_config: { effort: "low", format: { type: "json_schema", schema: { type: "object" } } },
    });
    expect(request.thinking?.effort).toBe("low");
    expect(request.responseFormat).toEqual({ type: "json-schema", schema: { type: "object" } });
    expect(untranslatedMessagesFields(request)).toEqual([]);
    // A format of another shape stays Anthropic's own, reported by its path.
    expect(
      untranslatedMessagesFields(
        parseMessagesRequest({ ...base, output_config: { format: { type: "json_schema" } } }),
      ),
    ).toEqual(["output_config.format"]);
    // Without thinking the effort stays Anthropic's own, and is reported like any other field.
    expect(
      untranslatedMessagesFields(
        parseMessagesRequest({ ...base, output_config: { effort: "high" } }),
      ),
    ).toEqual(["output_config.effort"]);
  });
});
