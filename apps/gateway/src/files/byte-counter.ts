import { Transform } from "node:stream";
import { FileTooLargeError } from "./file-errors.ts";

/**
 * Passes bytes through and counts them, failing with FileTooLargeError as soon as more than
 * `maxBytes` went by, so a writer behind it stops (and cleans up) without reading the rest.
 */
export class ByteCounter extends Transform {
  bytes = 0;
  readonly #maxBytes: number;

  constructor(maxBytes = Number.POSITIVE_INFINITY) {
    super();
    this.#maxBytes = maxBytes;
  }

  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    done: (error?: Error | null, data?: Buffer) => void,
  ): void {
    this.bytes += chunk.byteLength;
    if (this.bytes > this.#maxBytes) done(new FileTooLargeError(this.#maxBytes));
    else done(null, chunk);
  }
}
