/** `bytes` cut at the given offsets (any order, duplicates and out-of-range ones ignored). */
export function splitBytes(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts)].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  return chunks;
}

/** A stream of the given chunks, one per pull, as a network body delivers them. */
export function readableOf<T>(chunks: Iterable<T>): ReadableStream<T> {
  const iterator = chunks[Symbol.iterator]();
  return new ReadableStream<T>({
    pull(controller) {
      const next = iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
}

/** Every chunk of a stream, in order. (`for await` over streams is missing in some browsers.) */
export async function readAll<T>(stream: ReadableStream<T>): Promise<T[]> {
  const reader = stream.getReader();
  const out: T[] = [];
  for (;;) {
    const next = await reader.read();
    if (next.done) return out;
    out.push(next.value);
  }
}
