import { describe, expect, it } from "vitest";
import { post, useSim } from "../testing/http.ts";

// Structured output on every protocol: the answer is a JSON value of the schema the request
// names, in the place each protocol puts its text.
const sim = useSim();
const SCHEMA = {
  type: "object",
  properties: {
    city: { type: "string" },
    temp: { type: "integer" },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["city", "temp", "tags"],
};
const VALUE = { city: "sample city", temp: 1, tags: ["sample tags"] };
const user = [{ role: "user", content: "Weather as JSON." }];

describe("structured output", () => {
  it("chat response_format json_schema", async () => {
    const res = await post(
      `${sim().url}/v1/chat/completions`,
      {
        model: "gpt-4.1-mini",
        messages: user,
        response_format: { type: "json_schema", json_schema: { name: "w", schema: SCHEMA } },
      },
      { authorization: "Bearer k" },
    );
    expect(JSON.parse((await res.json()).choices[0].message.content)).toEqual(VALUE);
  });
  it("Responses text.format json_schema", async () => {
    const res = await post(
      `${sim().url}/v1/responses`,
      {
        model: "gpt-5",
        input: "Weather as JSON.",
        text: { format: { type: "json_schema", name: "w", schema: SCHEMA } },
      },
      { authorization: "Bearer k" },
    );
    const body = await res.json();
    const message = body.output.find((i: { type: string }) => i.type === "message");
    expect(JSON.parse(message.content[0].text)).toEqual(VALUE);
  });
  it("Anthropic output_config.format json_schema", async () => {
    const res = await post(
      `${sim().url}/v1/messages`,
      {
        model: "claude-sonnet-4-6",
        max_tokens: 100,
        messages: user,
        output_config: { format: { type: "json_schema", schema: SCHEMA } },
      },
      { "x-api-key": "k", "anthropic-version": "2023-06-01" },
    );
    expect(JSON.parse((await res.json()).content[0].text)).toEqual(VALUE);
  });
  it("Gemini responseJsonSchema and responseSchema", async () => {
    for (const key of ["responseJsonSchema", "responseSchema"]) {
      const res = await post(
        `${sim().url}/v1beta/models/gemini-2.5-pro:generateContent`,
        {
          contents: [{ role: "user", parts: [{ text: "Weather as JSON." }] }],
          generationConfig: { responseMimeType: "application/json", [key]: SCHEMA },
        },
        { "x-goog-api-key": "k" },
      );
      expect(JSON.parse((await res.json()).candidates[0].content.parts[0].text)).toEqual(VALUE);
    }
  });
});
