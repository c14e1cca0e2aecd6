// Image structure checks run as the bytes stream by, in constant memory: each format is a
// generator ("walk") that says what it wants next (a few header bytes to look at, a payload to
// skip, a scan to a marker, or the tail), and StructureParser feeds it whatever chunks arrive.

/** The bytes are not a whole, well-formed image of the sniffed type. */
export class BadImageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BadImageError";
  }
}

export type Want =
  /** Resume with exactly this many bytes. */
  | { readonly read: number }
  /** Pass over this many bytes, showing them to `see` (checksums) on the way. */
  | { readonly skip: number; readonly see?: (bytes: Uint8Array) => void }
  /** Consume bytes while `scan` says so: it returns how many of `bytes` it took; fewer ends it. */
  | { readonly scan: (bytes: Uint8Array) => number }
  /** The image ended: every remaining byte goes to `tail`, which throws on one it refuses. */
  | { readonly tail: (bytes: Uint8Array) => void };

export type StructureWalk = Generator<Want, void, Uint8Array>;

const EMPTY = new Uint8Array(0);

export const u16be = (b: Uint8Array, at: number): number => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
export const u32be = (b: Uint8Array, at: number): number =>
  ((b[at] ?? 0) * 0x1000000 +
    (((b[at + 1] ?? 0) << 16) | ((b[at + 2] ?? 0) << 8) | (b[at + 3] ?? 0))) >>>
  0;
export const u32le = (b: Uint8Array, at: number): number =>
  ((b[at + 3] ?? 0) * 0x1000000 +
    (((b[at + 2] ?? 0) << 16) | ((b[at + 1] ?? 0) << 8) | (b[at] ?? 0))) >>>
  0;
export const ascii = (b: Uint8Array, from: number, to: number): string =>
  String.fromCharCode(...b.subarray(from, to));

/** Drives one walk over pushed chunks; push and end throw BadImageError. */
export class StructureParser {
  readonly #walk: StructureWalk;
  #want: Want | undefined;
  #buffer = EMPTY;
  #filled = 0;
  #skipLeft = 0;

  constructor(walk: StructureWalk) {
    this.#walk = walk;
    this.#advance(EMPTY);
  }

  #advance(value: Uint8Array): void {
    for (;;) {
      const next = this.#walk.next(value);
      if (next.done) {
        this.#want = undefined;
        return;
      }
      const want = next.value;
      this.#want = want;
      if ("read" in want) {
        if (want.read > 0) {
          this.#buffer = new Uint8Array(want.read);
          this.#filled = 0;
          return;
        }
      } else if ("skip" in want) {
        if (want.skip > 0) {
          this.#skipLeft = want.skip;
          return;
        }
      } else {
        return;
      }
      value = EMPTY;
    }
  }

  push(chunk: Uint8Array): void {
    let offset = 0;
    while (offset < chunk.byteLength) {
      const want = this.#want;
      const rest = chunk.subarray(offset);
      if (want === undefined) throw new BadImageError("data after the end of the image");
      if ("read" in want) {
        const take = Math.min(want.read - this.#filled, rest.byteLength);
        this.#buffer.set(rest.subarray(0, take), this.#filled);
        this.#filled += take;
        offset += take;
        if (this.#filled === want.read) this.#advance(this.#buffer);
      } else if ("skip" in want) {
        const take = Math.min(this.#skipLeft, rest.byteLength);
        want.see?.(rest.subarray(0, take));
        this.#skipLeft -= take;
        offset += take;
        if (this.#skipLeft === 0) this.#advance(EMPTY);
      } else if ("scan" in want) {
        const took = want.scan(rest);
        offset += took;
        if (took < rest.byteLength) this.#advance(EMPTY);
      } else {
        want.tail(rest);
        offset = chunk.byteLength;
      }
    }
  }

  /** The input ended: fine only if the walk is done or only wanted its tail. */
  end(): void {
    if (this.#want !== undefined && !("tail" in this.#want))
      throw new BadImageError("the image is truncated");
  }
}
