/**
 * Bytes of request bodies being read (or held) at once, across requests: many large bodies at
 * the same time would otherwise each be admitted by the per-request cap and add up. A body is
 * counted by its declared length, or by the per-request cap when it declares none (chunked),
 * from before its handler runs until it returns. One body is always admitted when nothing else
 * is in flight, so the cap never refuses everything.
 */
export class InflightBodies {
  readonly #cap: number;
  #bytes = 0;

  constructor(cap: number) {
    this.#cap = cap;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** Counts `size` bytes in; false (nothing counted) when they would pass the cap. */
  admit(size: number): boolean {
    if (this.#bytes > 0 && this.#bytes + size > this.#cap) return false;
    this.#bytes += size;
    return true;
  }

  release(size: number): void {
    this.#bytes = Math.max(0, this.#bytes - size);
  }
}
