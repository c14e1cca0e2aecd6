/**
 * One shared interval per period: a timer per stream cost more than the tick itself. An idle
 * stream gets its keep-alive after one to two periods, as a random-phase timer of its own would.
 */
const tickers = new Map<
  number,
  { timer: ReturnType<typeof setInterval>; ticks: Set<() => void> }
>();

/** Runs `tick` every `periodMs` until the returned function is called. */
export function everyPeriod(periodMs: number, tick: () => void): () => void {
  let ticker = tickers.get(periodMs);
  if (ticker === undefined) {
    const ticks = new Set<() => void>();
    const timer = setInterval(() => {
      for (const each of ticks) each();
    }, periodMs);
    timer.unref();
    ticker = { timer, ticks };
    tickers.set(periodMs, ticker);
  }
  const own = ticker;
  // A function per subscription, so a tick registered twice is still removed once each.
  const entry = () => tick();
  own.ticks.add(entry);
  return () => {
    if (!own.ticks.delete(entry) || own.ticks.size > 0) return;
    clearInterval(own.timer);
    if (tickers.get(periodMs) === own) tickers.delete(periodMs);
  };
}
