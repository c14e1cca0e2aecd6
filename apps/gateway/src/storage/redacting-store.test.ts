import { describe, expect, it } from "vitest";
import { redactingStore } from "./redacting-store.ts";
import type { ChargeBatch, Store, UsageLogInput } from "./store.ts";
import type { NewDelivery, TaskEnd, TaskStore } from "./task-store.ts";

const redact = (text: string) => text.replaceAll("k3-plain-Zq81xYt0", "[redacted]");
const leaked = "upstream said: bad key k3-plain-Zq81xYt0";

const log = (error?: string): UsageLogInput =>
  ({ requestId: "r", status: 502, ...(error === undefined ? {} : { error }) }) as UsageLogInput;

/** A store that records what reached it; its private field proves methods stay bound. */
class RecordingStore {
  readonly #seen: unknown[] = [];
  readonly driver = "sqlite";
  readonly tasks = {
    finish: async (_id: string, _expected: string, end: TaskEnd, delivery?: NewDelivery) => {
      this.#seen.push({ end, delivery });
      return true;
    },
    get: async () => undefined,
  } as unknown as TaskStore;
  async writeCharges(batch: ChargeBatch) {
    this.#seen.push(batch);
    return { alreadyApplied: false };
  }
  async getUser(id: string) {
    this.#seen.push(id);
    return undefined;
  }
  seen() {
    return this.#seen;
  }
}

describe("redactingStore", () => {
  it("redacts usage rows, dead letters, task errors and webhook bodies; passes the rest through", async () => {
    const inner = new RecordingStore();
    const store = redactingStore(inner as unknown as Store, redact);
    await store.writeCharges(
      {
        id: "b",
        charges: [],
        logs: [log(leaked), log()],
        deadLetters: [
          { requestId: "r", reason: leaked, applied: false, charge: undefined, log: log(leaked) },
        ],
      },
      1,
    );
    await store.tasks.finish(
      "t",
      "processing",
      {
        status: "failed",
        error: { code: 502, message: leaked, type: "bad_gateway" },
        log: log(leaked),
      },
      { id: "d", url: "http://x", body: JSON.stringify({ error: leaked }), nextAttemptAt: 0 },
    );
    expect(await store.getUser("alice")).toBeUndefined();
    expect(store.driver).toBe("sqlite");
    const text = JSON.stringify(inner.seen());
    expect(text).not.toContain("k3-plain");
    expect(text.match(/\[redacted\]/g)).toHaveLength(6);
    expect(inner.seen().at(-1)).toBe("alice");
  });
});
