// What every queue consumer of the gateway keeps (task runner, webhook dispatcher, background
// responses): its runs in progress, so close() waits for them; a sweep timer that never keeps
// the process alive; and, once closed, no new run. A run's failure is reported, never thrown:
// its row stays due, and the sweep or a restart brings it back.

export class JobRuns {
  readonly #inFlight = new Set<Promise<void>>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  /** Runs `work` unless closed; `failed` reports what it threw. */
  run(work: () => Promise<void>, failed: (error: unknown) => void): Promise<void> {
    if (this.#closed) return Promise.resolve();
    const run = work().catch(failed);
    this.#inFlight.add(run);
    return run.finally(() => this.#inFlight.delete(run));
  }

  /** Calls `sweep` every `ms` until close(); its failures are `failed`'s. */
  every(ms: number, sweep: () => Promise<unknown>, failed: (error: unknown) => void): void {
    this.#timer = setInterval(() => void sweep().catch(failed), ms);
    this.#timer.unref();
  }

  /** Stops the timer and new runs, then waits for the runs in progress. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    await Promise.allSettled([...this.#inFlight]);
  }
}
