import { describe, expect, it } from "vitest";
import { renameReplyModel } from "./rename-model.js";

describe("renameReplyModel", () => {
  it("rewrites only the top-level model, leaving every other byte as it was", () => {
    const body =
      '{"id":"msg_1","type":"message","role":"assistant","model" : "claude-upstream-name","content":[{"type":"tool_use","input":{"model":"keep"}}],"usage":{"input_tokens":1.0}}';
    expect(renameReplyModel("messages", body, "txtB-opus-4-8")).toBe(
      body.replace('"claude-upstream-name"', '"txtB-opus-4-8"'),
    );
  });

  it("Gemini's modelVersion is the last one, after the candidates", () => {
    const body =
      '{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"modelVersion":"x"}}}]}}],"modelVersion":"gemini-up"}';
    expect(renameReplyModel("native", body, "txtC-2.5-pro")).toBe(
      body.replace('"gemini-up"', '"txtC-2.5-pro"'),
    );
  });

  it("a quoted key inside a string is not a key; a body without the field is unchanged", () => {
    const chunk =
      '{"id":"c","choices":[{"delta":{"content":"\\"model\\":\\"no\\""}}],"model":"up"}';
    expect(renameReplyModel("chat", chunk, "mine")).toBe(chunk.replace('"up"', '"mine"'));
    expect(renameReplyModel("chat", '{"id":"c"}', "mine")).toBe('{"id":"c"}');
  });
});
