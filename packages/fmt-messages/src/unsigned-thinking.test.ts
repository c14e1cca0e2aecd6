import type { StreamEvent } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { messages } from "./messages-codec.js";
import { UNSIGNED_THINKING } from "./unsigned-thinking.js";

// Issue 24, point 5: a thought without a signature (Gemini's, an OpenAI summary) is never a
// thinking block with an empty signature; it carries the unsigned mark, read back as none.

describe("an unsigned thought", () => {
  it("streams its thinking block with the unsigned mark, decoded back as no signature", async () => {
    const events: StreamEvent[] = [
      { type: "response-start", id: "msg_1", model: "m", created: 0 },
      { type: "part-start", index: 0, kind: "thinking" },
      { type: "thinking-delta", index: 0, delta: "hmm" },
      { type: "part-end", index: 0 },
      { type: "finish", finishReason: { unified: "stop", raw: "end_turn" } },
    ];
    const frames: { data: string }[] = [];
    const encoder = messages.stream.encoder();
    for (const e of events) encoder.push(e, (m) => frames.push(m));
    encoder.end((m) => frames.push(m));
    const signatures = frames
      .map((f) => JSON.parse(f.data) as { delta?: { type: string; signature?: string } })
      .filter((f) => f.delta?.type === "signature_delta")
      .map((f) => f.delta?.signature);
    expect(signatures).toEqual([UNSIGNED_THINKING]);
    const decoded: StreamEvent[] = [];
    const decoder = messages.stream.decoder();
    for (const f of frames) decoder.push(f, (e) => decoded.push(e));
    decoder.end((e) => decoded.push(e));
    expect(decoded.some((e) => e.type === "signature-delta")).toBe(false);
  });

  it("reads the mark in a request's thinking block as no signature", () => {
    const request = messages.request.parse({
      model: "m",
      max_tokens: 10,
      messages: [
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: [{ type: "thinking", thinking: "hmm", signature: UNSIGNED_THINKING }],
        },
        { role: "user", content: "go on" },
      ],
    });
    expect(request.messages[1]?.parts).toEqual([{ type: "thinking", text: "hmm" }]);
  });
});
