/** Resolves after `ms`, or early when the client goes away: simulated delays never outlive the request. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** Waits for the client to disconnect, at most `capMs`; tells which happened. */
export async function waitForAbort(signal: AbortSignal, capMs: number): Promise<boolean> {
  await sleep(capMs, signal);
  return signal.aborted;
}
