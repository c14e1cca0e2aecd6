import type { StreamEvent, Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { parseNativeResponse } from "./parse-native-response.js";
import { NativeStreamDecoder } from "./parse-native-stream.js";

// Issue 26, item 6: code execution is carried as text; an unknown part is dropped, reported.
const parts = [
  { executableCode: { language: "PYTHON", code: "print(1)" } },
  { codeExecutionResult: { outcome: "OUTCOME_OK", output: "1\n" } },
  { futurePart: {} },
];
const reply = {
  candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
  responseId: "r",
  modelVersion: "m",
};

describe("code execution parts", () => {
  it("a whole reply carries them as fenced text and reports it; an unknown part is dropped", () => {
    const warnings: Warning[] = [];
    const response = parseNativeResponse(reply, { onWarning: (w) => warnings.push(w) });
    expect(response.message.parts).toEqual([
      { type: "text", text: "\n```python\nprint(1)\n```\n" },
      { type: "text", text: "\n```output\n1\n\n```\n" },
    ]);
    expect(warnings.map((w) => `${w.feature}=${w.type}`)).toEqual([
      // The reply reports no usageMetadata: estimated by the caller.
      "usage=dropped",
      "candidates[0].content.parts[0]=mapped",
      "candidates[0].content.parts[1]=mapped",
      "candidates[0].content.parts[2]=dropped",
    ]);
  });
  it("a stream carries the same text", () => {
    const decoder = new NativeStreamDecoder();
    const events: StreamEvent[] = [];
    decoder.push({ data: JSON.stringify(reply) }, (e) => events.push(e));
    decoder.end((e) => events.push(e));
    const text = events.flatMap((e) => (e.type === "text-delta" ? [e.delta] : [])).join("");
    expect(text).toBe("\n```python\nprint(1)\n```\n\n```output\n1\n\n```\n");
  });
});
