import type { Logger } from "../log/logger.ts";

// A clean-up on a timer: batches until one comes back short, one sweep at a time (a tick during
// a long sweep joins it), on a timer that never keeps the process alive.

export interface PeriodicSweep {
  /** Sweeps now (or joins the sweep under way); resolves to how many rows went. */
  sweep(): Promise<number>;
  /** Stops the timer and waits for a sweep under way. */
  stop(): Promise<void>;
}

export interface PeriodicSweepOptions {
  /** Removes at most `limit` rows; resolves to how many it removed. */
  readonly sweepBatch: (limit: number) => Promise<number>;
  readonly batch: number;
  readonly intervalMs: number;
  readonly log: Logger;
  /** The warning logged when a timed sweep fails. */
  readonly failed: string;
}

export function startPeriodicSweep(options: PeriodicSweepOptions): PeriodicSweep {
  let running: Promise<number> | undefined;
  const sweepAll = async (): Promise<number> => {
    let swept = 0;
    for (;;) {
      const gone = await options.sweepBatch(options.batch);
      swept += gone;
      if (gone < options.batch) return swept;
    }
  };
  const sweep = (): Promise<number> => {
    running ??= sweepAll().finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer = setInterval(() => {
    sweep().catch((err: unknown) => options.log.warn({ err }, options.failed));
  }, options.intervalMs);
  timer.unref();
  return {
    sweep,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => {});
    },
  };
}
