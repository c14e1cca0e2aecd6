import type { Request, Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { parseMessagesResponse } from "./parse-messages-response.js";
import { renderMessagesRequest } from "./render-messages-request.js";
import { MESSAGES_JSON_OBJECT_INSTRUCTION } from "./render-output-format.js";

// Item 7 of issue 20: chat/responses response_format toward Anthropic is structured output
// (output_config.format), not dropped; the JSON comes back as a text block, i.e. as text.

const request = (over: Partial<Request>): Request => ({
  model: "txtB-sonnet-4-6",
  system: [],
  messages: [{ role: "user", parts: [{ type: "text", text: "extract" }] }],
  sampling: { maxTokens: 1000 },
  tools: [],
  stream: false,
  ...over,
});

describe("structured output toward Anthropic", () => {
  it("a JSON Schema becomes output_config.format, objects closed as Anthropic requires", () => {
    const schema = {
      type: "object",
      properties: {
        name: { type: "string" },
        tags: { type: "array", items: { type: "object", properties: { v: { type: "number" } } } },
      },
      required: ["name"],
    };
    const wire = renderMessagesRequest(
      request({ responseFormat: { type: "json-schema", name: "person", strict: true, schema } }),
    );
    expect(wire["output_config"]).toEqual({
      format: {
        type: "json_schema",
        schema: {
          type: "object",
          properties: {
            name: { type: "string" },
            tags: {
              type: "array",
              items: {
                type: "object",
                properties: { v: { type: "number" } },
                additionalProperties: false,
              },
            },
          },
          required: ["name"],
          additionalProperties: false,
        },
      },
    });
    // The canonical schema is not mutated.
    expect(schema).not.toHaveProperty("additionalProperties");
  });

  it("a Gemini-dialect schema (from a native client) is converted to JSON Schema first", () => {
    const wire = renderMessagesRequest(
      request({
        responseFormat: {
          type: "json-schema",
          schema: { type: "OBJECT", properties: { n: { type: "INTEGER", nullable: true } } },
        },
      }),
    );
    expect(wire["output_config"]).toEqual({
      format: {
        type: "json_schema",
        schema: {
          type: "object",
          properties: { n: { type: ["integer", "null"] } },
          additionalProperties: false,
        },
      },
    });
  });

  it("sits beside an effort in output_config", () => {
    const wire = renderMessagesRequest(
      request({
        sampling: { maxTokens: 8000 },
        thinking: { type: "adaptive", effort: "high" },
        responseFormat: { type: "json-schema", schema: { type: "string" } },
      }),
    );
    expect(wire["output_config"]).toEqual({
      effort: "high",
      format: { type: "json_schema", schema: { type: "string" } },
    });
  });

  it("json_object (no schema) is asked for in the system prompt, reported as mapped", () => {
    const list: Warning[] = [];
    const wire = renderMessagesRequest(
      request({
        system: [{ type: "text", text: "be brief" }],
        responseFormat: { type: "json-object" },
      }),
      { onWarning: (w) => list.push(w) },
    );
    expect(wire.system).toEqual([
      { type: "text", text: "be brief" },
      { type: "text", text: MESSAGES_JSON_OBJECT_INSTRUCTION },
    ]);
    expect(wire).not.toHaveProperty("output_config");
    expect(list).toContainEqual(
      expect.objectContaining({ type: "mapped", feature: "responseFormat" }),
    );
  });

  it("the structured reply is a text block: the client gets the JSON as its text", () => {
    const response = parseMessagesResponse({
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-6",
      content: [{ type: "text", text: '{"name":"Ada"}' }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 5, output_tokens: 4 },
    });
    expect(response.message.parts).toEqual([{ type: "text", text: '{"name":"Ada"}' }]);
  });
});
