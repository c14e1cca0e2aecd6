import type { SseMessage, StreamEvent } from "@interlingua/core-types";
import * as canonical from "@interlingua/core-types/testing";
import { decodeSse, encodeSse } from "@interlingua/sse";
import { describe, expect, it } from "vitest";
import { fixtureMessages, fixtureNames } from "../test/fixtures.js";
import { decodeChatMessages, decodeChatStream } from "./parse-chat-stream.js";
import { encodeChatEvents } from "./render-chat-stream.js";
import { asJson, fc, toChatExpressibleResponse } from "./testing.js";

/** Frames with @interlingua/sse, as one byte string. */
async function frame(messages: SseMessage[], lineEnding: "\n" | "\r\n"): Promise<Uint8Array> {
  const parts = await collect(streamOf(messages).pipeThrough(encodeSse({ lineEnding })));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function split(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => Math.floor(c * bytes.length)))]
    .filter((p) => p > 0 && p < bytes.length)
    .sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.subarray(from, p));
    from = p;
  }
  return out;
}

function streamOf<T>(items: Iterable<T>): ReadableStream<T> {
  const iterator = items[Symbol.iterator]();
  return new ReadableStream<T>({
    pull(controller) {
      const next = iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
}

async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  const reader = stream.getReader();
  for (;;) {
    const next = await reader.read();
    if (next.done) return out;
    out.push(next.value);
  }
}

/** Bytes in arbitrary pieces -> @interlingua/sse -> the chat decoder. */
const decodeBytes = (chunks: Uint8Array[]): Promise<StreamEvent[]> =>
  collect(streamOf(chunks).pipeThrough(decodeSse()).pipeThrough(decodeChatStream()));

const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 });
const lineEnding = fc.constantFrom("\n" as const, "\r\n" as const);

describe("law 3: decoding is independent of how the bytes are split", () => {
  it("canonical events -> chat frames -> bytes split anywhere -> the same events", async () => {
    await fc.assert(
      fc.asyncProperty(
        canonical.streamEvents(canonical.response.map(toChatExpressibleResponse).map(asJson)),
        cuts,
        lineEnding,
        async (events, at, eol) => {
          const bytes = await frame(
            encodeChatEvents(events, { providerExtras: { openai: { includeUsage: true } } }),
            eol,
          );
          expect(await decodeBytes(split(bytes, at))).toStrictEqual(events);
        },
      ),
    );
  });

  for (const name of fixtureNames) {
    it(`${name}: any split of the recording decodes like the whole`, async () => {
      const whole = decodeChatMessages(fixtureMessages(name));
      await fc.assert(
        fc.asyncProperty(cuts, lineEnding, async (at, eol) => {
          const bytes = await frame(fixtureMessages(name), eol);
          expect(await decodeBytes(split(bytes, at))).toStrictEqual(whole);
        }),
      );
    });
  }
});
