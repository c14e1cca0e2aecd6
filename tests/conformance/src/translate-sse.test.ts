/**
 * The fused path (`translateSse(from.decoder(), to.encoder())`) against the chained one
 * (`decodeSse -> from.decode() -> to.encode() -> encodeSse`): for every recording and every other
 * target format, the bytes decode to the same events, however the input bytes are split, and each
 * input chunk yields at most one output chunk.
 */
import type { StreamEvent } from "@interlingua/core-types";
import { decodeSse, encodeSse, translateSse } from "@interlingua/sse";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codecs, decodeWire, withUsageChunk } from "./codecs.js";
import { recordingFolders, recordings } from "./recordings.js";

const utf8 = new TextEncoder();
const options = withUsageChunk;

const cases = recordings().flatMap((recording) => {
  const source = recordingFolders[recording.folder];
  return Object.keys(codecs).map((target) => ({
    name: `${recording.file} -> ${target}`,
    bytes: utf8.encode(recording.sse),
    source,
    target,
  }));
});

function readableOf<T>(chunks: readonly T[]): ReadableStream<T> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function readText(
  stream: ReadableStream<Uint8Array>,
): Promise<{ text: string; chunks: number }> {
  let out = "";
  let chunks = 0;
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    chunks++;
    out += decoder.decode(chunk, { stream: true });
  }
  return { text: out + decoder.decode(), chunks };
}

function split(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
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

const chained = (chunks: Uint8Array[], source: string, target: string) =>
  readText(
    readableOf(chunks)
      .pipeThrough(decodeSse())
      .pipeThrough(codecs[source]!.stream.decode())
      .pipeThrough(codecs[target]!.stream.encode(options))
      .pipeThrough(encodeSse()),
  );

const fused = (chunks: Uint8Array[], source: string, target: string) =>
  readText(
    readableOf(chunks).pipeThrough(
      translateSse(codecs[source]!.stream.decoder(), codecs[target]!.stream.encoder(options)),
    ),
  );

const events = (target: string, sse: string): Promise<StreamEvent[]> =>
  decodeWire(codecs[target]!, sse);

describe("translateSse across formats", () => {
  it.each(cases)("$name: same events as the chained streams", async ({ bytes, source, target }) => {
    const viaChain = await chained([bytes], source, target);
    const viaFused = await fused([bytes], source, target);
    // One chunk for the input, at most one more for what the decoder and encoder emit at the end.
    expect(viaFused.chunks).toBeLessThanOrEqual(2);
    expect(await events(target, viaFused.text)).toEqual(await events(target, viaChain.text));
  });

  it.each(cases)(
    "$name: independent of how the input is split",
    async ({ bytes, source, target }) => {
      const whole = await events(target, (await fused([bytes], source, target)).text);
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }),
          async (cuts) => {
            const chunks = split(bytes, cuts);
            const out = await fused(chunks, source, target);
            expect(out.chunks).toBeLessThanOrEqual(chunks.length + 1);
            expect(await events(target, out.text)).toEqual(whole);
          },
        ),
        { numRuns: 5 },
      );
    },
  );
});
