import { type DecodeSseOptions, decodeSse, type SseEvent } from "../src/index.js";
import { readAll, readableOf } from "../src/testing.js";

/** Chunks through the streaming decoder, one chunk per pull. */
export function decodeChunks(
  chunks: Iterable<Uint8Array | string>,
  options?: DecodeSseOptions,
): Promise<SseEvent[]> {
  return readAll(readableOf(chunks).pipeThrough(decodeSse(options)));
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export const utf8 = new TextEncoder();
export const fromUtf8 = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
