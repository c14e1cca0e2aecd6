/**
 * Turns a failure of a stream (a malformed upstream frame, a reset) into final values, so the
 * client gets an error event in its own format instead of a cut connection.
 */
export function recoverStreamErrors<T>(
  source: ReadableStream<T>,
  toValues: (error: unknown) => T[] | Promise<T[]>,
): ReadableStream<T> {
  const reader = source.getReader();
  return new ReadableStream<T>(
    {
      async pull(controller) {
        try {
          const next = await reader.read();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          for (const value of await toValues(error)) controller.enqueue(value);
          controller.close();
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
