import type { SseMessage, StreamEvent } from "@interlingua/core-types";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MessagesStreamDecoder } from "./parse-messages-stream.js";

/** A text or thinking delta as Anthropic writes it. */
const delta = fc.record({
  kind: fc.constantFrom("text", "thinking"),
  text: fc.string({ unit: "binary", maxLength: 12 }),
  index: fc.integer({ min: 0, max: 3 }),
});

type DeltaCase = typeof delta extends fc.Arbitrary<infer T> ? T : never;

const wire = (d: DeltaCase) => ({
  type: "content_block_delta",
  index: d.index,
  delta:
    d.kind === "text"
      ? { type: "text_delta", text: d.text }
      : { type: "thinking_delta", thinking: d.text },
});

// Blocks 0 and 1 are text and thinking; block 2 a kind this codec ignores; block 3 never opened.
const OPENING = [
  { type: "message_start", message: { id: "msg_1", model: "m", usage: { input_tokens: 3 } } },
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "content_block_start", index: 1, content_block: { type: "thinking", thinking: "" } },
  { type: "content_block_start", index: 2, content_block: { type: "server_tool_use", id: "s" } },
].map((event) => JSON.stringify(event));

function decode(datas: string[]): StreamEvent[] {
  const decoder = new MessagesStreamDecoder();
  const events: StreamEvent[] = [];
  const emit = (event: StreamEvent) => void events.push(event);
  for (const data of datas) decoder.push({ data } satisfies SseMessage, emit);
  return events;
}

afterEach(() => vi.restoreAllMocks());

describe("compact text and thinking deltas", () => {
  it("decode as the general path does, without parsing the whole frame", () => {
    fc.assert(
      fc.property(fc.array(delta, { maxLength: 8 }), (deltas) => {
        const frames = deltas.map(wire);
        // Spaced out, a frame no longer has the compact form: the general path reads it.
        const general = decode([...OPENING, ...frames.map((f) => JSON.stringify(f, null, 1))]);
        const parse = vi.spyOn(JSON, "parse");
        const compact = decode([...OPENING, ...frames.map((f) => JSON.stringify(f))]);
        const wholeFrames = parse.mock.calls.filter(([text]) => String(text).startsWith("{"));
        parse.mockRestore();
        expect(compact).toEqual(general);
        expect(wholeFrames).toHaveLength(OPENING.length);
      }),
    );
  });

  it("leave every other form to the general path", () => {
    const parse = vi.spyOn(JSON, "parse");
    const frames = [
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: "{" },
      },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "a", extra: 1 } },
      { type: "content_block_delta", index: -1, delta: { type: "text_delta", text: "a" } },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", text: "a" } },
    ].map((frame) => JSON.stringify(frame));
    const events = decode([...OPENING, ...frames]);
    expect(parse.mock.calls.filter(([text]) => String(text).startsWith("{"))).toHaveLength(
      OPENING.length + frames.length,
    );
    // As the general path reads them: the extra field ignored, the index taken as it is, and a
    // thinking delta without its thinking empty.
    expect(events.filter((e) => e.type === "text-delta" || e.type === "thinking-delta")).toEqual([
      { type: "text-delta", index: 0, delta: "a" },
      { type: "text-delta", index: -1, delta: "a" },
    ]);
  });
});
