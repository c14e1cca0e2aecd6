import { readFileSync } from "node:fs";
import type { SseMessage, StreamEvent, Warning } from "@interlingua/core-types";
import { MessagesStreamDecoder } from "../src/parse-messages-stream.js";
import { MessagesStreamEncoder } from "../src/render-messages-stream.js";

const FIXTURES = new URL("../../../fixtures/anthropic/", import.meta.url);

export function readFixture(name: string): string {
  return readFileSync(new URL(name, FIXTURES), "utf8");
}

export function readJsonFixture(name: string): unknown {
  return JSON.parse(readFixture(name));
}

/** A `.chunks.txt` recording framed as Anthropic sends it: `event: <type>` + the JSON line. */
export function fixtureMessages(name: string): SseMessage[] {
  return readFixture(name)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => ({ event: (JSON.parse(line) as { type: string }).type, data: line }));
}

export function decodeAll(messages: readonly SseMessage[]): StreamEvent[] {
  const decoder = new MessagesStreamDecoder();
  const out: StreamEvent[] = [];
  const emit = (e: StreamEvent) => out.push(e);
  for (const message of messages) decoder.push(message, emit);
  return out;
}

export function encodeAll(
  events: readonly StreamEvent[],
  onWarning?: (warning: Warning) => void,
): SseMessage[] {
  const encoder = new MessagesStreamEncoder(onWarning);
  const out: SseMessage[] = [];
  const emit = (m: SseMessage) => out.push(m);
  for (const event of events) encoder.push(event, emit);
  encoder.end(emit);
  return out;
}

/** Runs values through a TransformStream and collects what comes out. */
export async function pipeThrough<I, O>(
  stream: TransformStream<I, O>,
  inputs: Iterable<I>,
): Promise<O[]> {
  const source = new ReadableStream<I>({
    start(controller) {
      for (const input of inputs) controller.enqueue(input);
      controller.close();
    },
  });
  const out: O[] = [];
  const reader = source.pipeThrough(stream).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

/** Collects warnings for assertions. */
export function warnings(): { list: Warning[]; onWarning: (w: Warning) => void } {
  const list: Warning[] = [];
  return { list, onWarning: (w) => list.push(w) };
}
