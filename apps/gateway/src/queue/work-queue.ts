// The background work of asynchronous generation: polling tasks, delivering webhooks, running
// background responses. Two drivers behind one interface: in process (no `redis_url`: a timer
// over the database's due rows) and BullMQ (with `redis_url`: any number of gateway instances
// share the jobs). The rows in the database stay the truth; a job only says "look at this row
// at this time", so a lost or duplicated job costs a poll, never money.

export type WorkKind = "task" | "webhook" | "response";

export type WorkHandler = (id: string) => Promise<void>;

export interface WorkQueue {
  /** Ask for `handler(kind)(id)` to run at or after `atMs` (unix ms). Idempotent per (kind, id, atMs). */
  schedule(kind: WorkKind, id: string, atMs: number): Promise<void>;
  /** Starts running jobs of `kind` with `handler`. */
  process(kind: WorkKind, handler: WorkHandler): void;
  close(): Promise<void>;
}
