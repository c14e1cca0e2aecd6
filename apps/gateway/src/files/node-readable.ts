import { Readable } from "node:stream";
import type { ReadableStream as NodeWebStream } from "node:stream/web";

/** A put body as a Node stream (what fs and the S3 SDK read). */
export function toNodeReadable(body: ReadableStream<Uint8Array> | Uint8Array): Readable {
  if (body instanceof Uint8Array) {
    return Readable.from([Buffer.from(body.buffer, body.byteOffset, body.byteLength)], {
      objectMode: false,
    });
  }
  return Readable.fromWeb(body as unknown as NodeWebStream<Uint8Array>);
}

/** A Node stream as the web stream FileStore.get returns. */
export function toWebStream(stream: Readable): ReadableStream<Uint8Array> {
  return Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>;
}
