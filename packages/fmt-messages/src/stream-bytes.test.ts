import { normalizeStreamEvents, responseToEvents } from "@interlingua/core-types";
import { decodeSse, encodeSse } from "@interlingua/sse";
import { describe, expect, it } from "vitest";
import { expressibleStreamResponse } from "../test/expressible.js";
import { fixtureMessages, pipeThrough } from "../test/helpers.js";
import { decodeMessagesStream } from "./parse-messages-stream.js";
import { encodeMessagesStream } from "./render-messages-stream.js";
import { fc } from "./testing.js";

/** Bytes cut at the given offsets, as a network would deliver them. */
function split(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const cut of at) {
    chunks.push(bytes.subarray(from, cut));
    from = cut;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}

async function concat(chunks: Uint8Array[]): Promise<Uint8Array> {
  return new Uint8Array(await new Blob(chunks as BlobPart[]).arrayBuffer());
}

describe("law 3 over bytes: decoding does not depend on how the bytes are split", () => {
  it("encode -> SSE bytes (\\n or \\r\\n) -> random splits -> decodeSse -> decode", async () => {
    await fc.assert(
      fc.asyncProperty(
        expressibleStreamResponse.map(responseToEvents),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.boolean(),
        async (events, cuts, crlf) => {
          const frames = await pipeThrough(encodeMessagesStream(), events);
          let bytes = await concat(await pipeThrough(encodeSse(), frames));
          if (crlf) {
            const text = new TextDecoder().decode(bytes).replaceAll("\n", "\r\n");
            bytes = new TextEncoder().encode(text);
          }
          const messages = await pipeThrough(decodeSse(), split(bytes, cuts));
          const decoded = await pipeThrough(decodeMessagesStream(), messages);
          expect(normalizeStreamEvents(decoded)).toEqual(normalizeStreamEvents(events));
        },
      ),
    );
  });

  it("a recording framed as SSE decodes the same whatever the splits", async () => {
    const messages = fixtureMessages("anthropic-clear-thinking.1.chunks.txt");
    const reference = await pipeThrough(decodeMessagesStream(), messages);
    const bytes = await concat(await pipeThrough(encodeSse(), messages));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 20 }), async (cuts) => {
        const framed = await pipeThrough(decodeSse(), split(bytes, cuts));
        expect(await pipeThrough(decodeMessagesStream(), framed)).toEqual(reference);
      }),
    );
  });
});
