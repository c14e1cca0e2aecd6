import type { StreamEvent, Usage } from "@interlingua/core-types";
import { chat } from "@interlingua/fmt-chat";
import { isChatUsageOnlyChunk } from "@interlingua/fmt-chat/tables";
import { messages } from "@interlingua/fmt-messages";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type SseWatch, watchSse } from "./observe-sse.ts";
import { passThroughStage } from "./pass-through-stage.ts";
import { reframeStage } from "./reframe-stage.ts";

const utf8 = new TextEncoder();
const text = new TextDecoder();

/** An OpenAI stream as the gateway asks for it: `deltas` text chunks, the finish, the usage chunk. */
function chatStream(deltas: string[]): string {
  const chunk = (choices: unknown[], usage: unknown = null) =>
    `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices, usage })}\n\n`;
  const delta = (content: string) => [{ index: 0, delta: { content }, finish_reason: null }];
  return (
    chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]) +
    deltas.map((d) => chunk(delta(d))).join("") +
    chunk([{ index: 0, delta: {}, finish_reason: "stop" }]) +
    chunk([], {
      prompt_tokens: 5,
      completion_tokens: deltas.length,
      total_tokens: 5 + deltas.length,
    }) +
    "data: [DONE]\n\n"
  );
}

/** An Anthropic stream: message_start, one text block of `deltas`, message_delta, message_stop. */
function anthropicStream(deltas: string[]): string {
  const frame = (value: { type: string } & Record<string, unknown>) =>
    `event: ${value.type}\ndata: ${JSON.stringify(value)}\n\n`;
  return (
    frame({
      type: "message_start",
      message: { id: "m", model: "x", usage: { input_tokens: 7, output_tokens: 1 } },
    }) +
    frame({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }) +
    frame({ type: "ping" }) +
    deltas
      .map((d) =>
        frame({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: d } }),
      )
      .join("") +
    frame({ type: "content_block_stop", index: 0 }) +
    frame({
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { output_tokens: deltas.length },
    }) +
    frame({ type: "message_stop" })
  );
}

/** Cuts `bytes` at the given offsets (sorted, deduplicated, within range). */
function cut(bytes: Uint8Array, at: number[]): Uint8Array[] {
  const points = [...new Set(at.map((n) => n % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    out.push(bytes.subarray(from, point));
    from = point;
  }
  return out.filter((piece) => piece.length > 0);
}

/** The gateway's stage for an OpenAI stream whose usage chunk the client did not ask for. */
const chatWithoutUsageChunk = (watch: SseWatch) =>
  reframeStage(watch, {
    keep: (m) => !isChatUsageOnlyChunk(m.data),
    framing: "raw",
    failure: () => [],
    frames: chat.stream.frames,
  });

function watcher(format: "chat" | "messages") {
  const events: StreamEvent[] = [];
  let chars = 0;
  let decoded = 0;
  let parsed = 0;
  const codec = format === "chat" ? chat : messages;
  const decoder = codec.stream.decoder();
  const watch = watchSse({
    decoder: {
      push: (message, emit) => {
        decoded++;
        decoder.push(message, emit);
      },
      end: (emit) => decoder.end(emit),
    },
    onEvent: (event) => {
      events.push(event);
      if (event.type === "text-delta") chars += event.delta.length;
    },
    onDecodeError: (error) => {
      throw error;
    },
    plain: { test: codec.stream.frames!.plain, decoder: () => codec.stream.decoder() },
  });
  // Counts the messages the tap parsed (skipped frames never reach `see`).
  const counting: SseWatch = {
    strict: watch.strict === true,
    see: (message) => {
      parsed++;
      watch.see(message);
    },
    end: () => watch.end(),
    samplesWanted: () => watch.samplesWanted(),
    keepSample: (bytes, frames) => watch.keepSample(bytes, frames),
    skipFrames: (frames) => watch.skipFrames(frames),
    skippedChars: () => watch.skippedChars(),
  };
  return {
    watch: counting,
    result: () => ({
      usage: events.filter((e) => e.type === "usage").at(-1)?.usage as Usage | undefined,
      finish: events.find((e) => e.type === "finish"),
      chars: chars + watch.skippedChars(),
      decoded,
      parsed,
    }),
  };
}

/**
 * A chat stream, cut at `at`, through the stage that keeps the usage chunk from the client: its
 * output pieces as text, and what the watch read.
 */
function reframeChat(streamText: string, at: number[]) {
  const { watch, result } = watcher("chat");
  const stage = chatWithoutUsageChunk(watch);
  const pieces = cut(utf8.encode(streamText), at).map((chunk) => stage.push(chunk));
  pieces.push(stage.end());
  return {
    pieces: pieces.map((piece) => (typeof piece === "string" ? piece : text.decode(piece))),
    seen: result(),
  };
}

/** The watch of `chatStream(ds)` read its usage and finish, and measured every delta. */
function expectChatRead(seen: ReturnType<ReturnType<typeof watcher>["result"]>, ds: string[]) {
  expect(seen.usage).toMatchObject({ inputTokens: 5, outputTokens: ds.length });
  expect(seen.finish).toMatchObject({ finishReason: { unified: "stop" } });
  expect(seen.chars).toBeCloseTo(charsOf(ds), 6);
}

// Equal deltas, so the sampled average is exact and so is the character count; the multi-byte
// one puts chunk cuts inside characters.
const deltas = fc
  .tuple(fc.integer({ min: 0, max: 60 }), fc.constantFrom("abcd", "ä€😀"))
  .map(([n, text]) => Array.from({ length: n }, () => text));
const charsOf = (ds: string[]) => ds.reduce((sum, d) => sum + d.length, 0);
const cuts = fc.array(fc.nat(), { maxLength: 12 });

describe("skipping runs of plain deltas", () => {
  it("pass-through (Anthropic): same bytes out, and the tap still reads usage and the finish", () => {
    fc.assert(
      fc.property(deltas, cuts, (ds, at) => {
        const wire = utf8.encode(anthropicStream(ds));
        const { watch, result } = watcher("messages");
        const stage = passThroughStage(watch, () => [], messages.stream.frames);
        const out = cut(wire, at).map((chunk) => stage.push(chunk));
        stage.end();
        expect(Buffer.concat(out.map((o) => (typeof o === "string" ? utf8.encode(o) : o)))).toEqual(
          Buffer.from(wire),
        );
        const seen = result();
        expect(seen.usage).toMatchObject({ inputTokens: 7, outputTokens: ds.length });
        expect(seen.finish).toMatchObject({ finishReason: { unified: "stop" } });
        expect(seen.chars).toBeCloseTo(charsOf(ds), 6);
      }),
    );
  });

  it("raw re-framing (OpenAI usage the client did not ask for): whole frames, without the usage chunk", () => {
    fc.assert(
      fc.property(deltas, cuts, (ds, at) => {
        const streamText = chatStream(ds);
        const { pieces, seen } = reframeChat(streamText, at);
        for (const piece of pieces) expect(piece === "" || piece.endsWith("\n\n")).toBe(true);
        const frames = streamText.split("\n\n").filter((f) => f !== "");
        const expected = frames.filter((f) => !f.includes('"choices":[]')).map((f) => `${f}\n\n`);
        expect(pieces.join("")).toBe(expected.join(""));
        expectChatRead(seen, ds);
      }),
    );
  });

  it("decodes no delta, when chunks hold whole deltas", () => {
    const ds = Array.from({ length: 200 }, () => "word");
    const wire = utf8.encode(anthropicStream(ds));
    // Chunks of about ten frames each, as an upstream writing in bursts would send.
    const { watch, result } = watcher("messages");
    const stage = passThroughStage(watch, () => [], messages.stream.frames);
    for (const chunk of cut(
      wire,
      Array.from({ length: 25 }, (_, i) => i * 1200),
    ))
      stage.push(chunk);
    stage.end();
    const seen = result();
    expect(seen.usage?.outputTokens).toBe(200);
    // No delta: at most message_start, content_block_start, ping, content_block_stop,
    // message_delta and message_stop (those inside a skipped run are not even parsed), and at
    // least the two that carry usage.
    expect(seen.decoded).toBeLessThanOrEqual(6);
    expect(seen.decoded).toBeGreaterThanOrEqual(2);
  });

  it("reads a frame far longer than a chunk, arriving in many, and skips again after it", () => {
    const big = "y".repeat(200_000);
    const ds = [
      ...Array.from({ length: 12 }, () => "abcd"),
      big,
      ...Array.from({ length: 12 }, () => "abcd"),
    ];
    const wire = utf8.encode(chatStream(ds));
    const { watch, result } = watcher("chat");
    const stage = passThroughStage(watch, () => [], chat.stream.frames);
    const chunks = cut(
      wire,
      Array.from({ length: Math.ceil(wire.length / 1000) }, (_, i) => i * 1000),
    );
    const out = chunks.map((chunk) => stage.push(chunk));
    stage.end();
    expect(Buffer.concat(out.map((o) => (typeof o === "string" ? utf8.encode(o) : o)))).toEqual(
      Buffer.from(wire),
    );
    const seen = result();
    expect(seen.usage).toMatchObject({ outputTokens: ds.length });
    expect(seen.finish).toMatchObject({ finishReason: { unified: "stop" } });
    // The big delta is past the sample, so it counts at the sample's average, like any other.
    expect(seen.chars).toBeCloseTo(4 * ds.length, 6);
  });

  it("decodes only the needed frames when a whole stream comes in one chunk", () => {
    const ds = Array.from({ length: 200 }, () => "word");
    const streamText = chatStream(ds);
    const { watch, result } = watcher("chat");
    const stage = chatWithoutUsageChunk(watch);
    const out = stage.push(utf8.encode(streamText));
    const outText = (typeof out === "string" ? out : text.decode(out)) + stage.end();
    expect(outText).toBe(streamText.replace(/data: \{[^\n]*"choices":\[\][^\n]*\n\n/, ""));
    const seen = result();
    expect(seen.usage?.outputTokens).toBe(200);
    expect(seen.finish).toMatchObject({ finishReason: { unified: "stop" } });
    expect(seen.chars).toBeCloseTo(800, 6);
    // The finish and the usage chunk: the role chunk and the deltas are plain (kept or counted),
    // and [DONE] went by in the last skipped run.
    expect(seen.decoded).toBe(2);
    // Parsed: the first frame (its first line tells the line ending), the finish and the usage
    // chunk. The sample of deltas is kept as bytes, unparsed.
    expect(seen.parsed).toBe(3);
  });

  it("skips runs of a CRLF stream too, however it is cut", () => {
    fc.assert(
      fc.property(deltas, cuts, (ds, at) => {
        const streamText = chatStream(ds).replaceAll("\n", "\r\n");
        const { pieces, seen } = reframeChat(streamText, at);
        expect(pieces.join("")).toBe(
          streamText.replace(/data: \{[^\r]*"choices":\[\][^\r]*\r\n\r\n/, ""),
        );
        expectChatRead(seen, ds);
        // Whole, a long stream is skipped, not parsed: the first frame, finish and usage only.
        if (at.length === 0 && ds.length > 20) expect(seen.parsed).toBe(3);
      }),
    );
  });
});
