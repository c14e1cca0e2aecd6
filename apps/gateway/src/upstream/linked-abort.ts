/**
 * An abort signal for one upstream attempt that follows the client's until `unlink`: the client
 * leaving cancels the call while it is the gateway's to cancel (before a stream is committed to
 * the relay, which then cancels it itself, or while a non-stream reply is awaited).
 */
export interface LinkedAbort {
  readonly signal: AbortSignal | undefined;
  unlink(): void;
}

const NOTHING: LinkedAbort = { signal: undefined, unlink: () => {} };

export function linkedAbort(client: AbortSignal | undefined): LinkedAbort {
  if (client === undefined) return NOTHING;
  const controller = new AbortController();
  if (client.aborted) {
    controller.abort(client.reason);
    return { signal: controller.signal, unlink: () => {} };
  }
  const onAbort = () => controller.abort(client.reason);
  client.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    unlink: () => client.removeEventListener("abort", onAbort),
  };
}
