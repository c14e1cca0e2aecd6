import type { Logger } from "../log/logger.ts";
import type { ResponseStore } from "../storage/response-store.ts";

export interface ResponseSweeper {
  /** Deletes every stored response expired now (with its items); resolves to how many. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

const DEFAULT_INTERVAL_MS = 10 * 60_000;
const BATCH = 500;

/**
 * Deletes stored responses past `responses.retention_days` on a timer that never keeps the
 * process alive. Reads never return an expired response even before it is swept; the sweep only
 * frees the space. Each batch is one transaction, so two instances never both delete a row.
 */
export function startResponseSweeper(options: {
  readonly store: ResponseStore;
  readonly now: () => number;
  readonly log: Logger;
  readonly intervalMs?: number;
}): ResponseSweeper {
  let running: Promise<number> | undefined;
  const sweepAll = async (): Promise<number> => {
    let swept = 0;
    for (;;) {
      const gone = await options.store.sweep(options.now(), BATCH);
      swept += gone;
      if (gone < BATCH) return swept;
    }
  };
  const sweep = (): Promise<number> => {
    running ??= sweepAll().finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer = setInterval(() => {
    sweep().catch((err: unknown) => options.log.warn({ err }, "stored response sweep failed"));
  }, options.intervalMs ?? DEFAULT_INTERVAL_MS);
  timer.unref();
  return {
    sweep,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => {});
    },
  };
}
