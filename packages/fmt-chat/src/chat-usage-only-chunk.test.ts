import { describe, expect, it } from "vitest";
import { isChatUsageOnlyChunk } from "./chat-usage-only-chunk.js";

describe("isChatUsageOnlyChunk", () => {
  it("is the `choices: []` chunk with usage, and nothing else", () => {
    const usage = '"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}';
    expect(isChatUsageOnlyChunk(`{"id":"c","choices":[],${usage}}`)).toBe(true);
    // A content chunk, one whose usage is null, a finish chunk carrying usage, [DONE], bad JSON.
    expect(isChatUsageOnlyChunk('{"choices":[{"index":0,"delta":{"content":"[]"}}]}')).toBe(false);
    expect(isChatUsageOnlyChunk('{"choices":[],"usage":null}')).toBe(false);
    expect(isChatUsageOnlyChunk(`{"choices":[{"index":0,"finish_reason":"stop"}],${usage}}`)).toBe(
      false,
    );
    expect(isChatUsageOnlyChunk("[DONE]")).toBe(false);
    expect(isChatUsageOnlyChunk('{"choices":[],')).toBe(false);
  });
});
