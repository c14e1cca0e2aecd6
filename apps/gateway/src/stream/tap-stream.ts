/**
 * Passes chunks through untouched while a side consumer reads a copy of them. The side runs on
 * its own stream, so its decoding never delays the client's bytes; `done` settles when the side
 * consumer has seen the end (or given up), which is when its findings are complete.
 */
export function tapStream<T>(consume: (copy: ReadableStream<T>) => Promise<void>): {
  stream: TransformStream<T, T>;
  done: Promise<void>;
} {
  let side!: ReadableStreamDefaultController<T>;
  const copy = new ReadableStream<T>({
    start(controller) {
      side = controller;
    },
  });
  const done = consume(copy).catch(() => {});
  // `cancel` (Streams spec, Node >= 21) runs when the main stream fails, so the side ends too;
  // the DOM lib types do not declare it yet.
  const transformer: Transformer<T, T> & { cancel(reason: unknown): void } = {
    transform(chunk, controller) {
      controller.enqueue(chunk);
      side.enqueue(chunk);
    },
    flush() {
      side.close();
    },
    cancel(reason) {
      side.error(reason);
    },
  };
  return { stream: new TransformStream<T, T>(transformer), done };
}
