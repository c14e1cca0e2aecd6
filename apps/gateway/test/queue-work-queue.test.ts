import { randomBytes } from "node:crypto";
import { Queue } from "bullmq";
import { afterAll, describe, expect, it } from "vitest";
import { BullMqWorkQueue, jobIdOf } from "../src/queue/bullmq-work-queue.ts";
import { MemoryWorkQueue } from "../src/queue/memory-work-queue.ts";
import { openWorkQueue } from "../src/queue/open-work-queue.ts";
import { ManualClock } from "../src/queue/work-clock.ts";
import type { WorkKind } from "../src/queue/work-queue.ts";
import { REDIS_URL, redisReachable } from "./redis-support.ts";

// The two drivers of WorkQueue: in process on a clock the test moves, and BullMQ on the local
// Redis (127.0.0.1:6379, or TEST_REDIS_URL), where a job scheduled twice runs once and two
// queue instances (two gateways) share the jobs.

const redisUp = await redisReachable("BullMQ");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (bounded) until `ready()` holds. */
async function until(ready: () => boolean, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await sleep(10);
  }
}

describe("MemoryWorkQueue", () => {
  const setup = (start = 1_000) => {
    const clock = new ManualClock(start);
    const errors: unknown[] = [];
    const queue = new MemoryWorkQueue({ clock, onError: (error) => errors.push(error) });
    const runs: [WorkKind, string, number][] = [];
    const record = (kind: WorkKind) => async (id: string) => {
      runs.push([kind, id, clock.now()]);
    };
    return { clock, queue, runs, errors, record };
  };

  it("runs a job at its time, not a millisecond before", async () => {
    const { clock, queue, runs, record } = setup();
    queue.process("task", record("task"));
    await queue.schedule("task", "t1", 11_000);
    clock.advance(9_999);
    await queue.idle();
    expect(runs).toEqual([]);
    clock.advance(1);
    await queue.idle();
    expect(runs).toEqual([["task", "t1", 11_000]]);
    clock.advance(1_000_000);
    await queue.idle();
    expect(runs).toHaveLength(1);
    expect(queue.scheduled).toBe(0);
  });

  it("keeps the earliest time per (kind, id): a job asked for twice runs once", async () => {
    const { clock, queue, runs, record } = setup();
    queue.process("webhook", record("webhook"));
    await queue.schedule("webhook", "d1", 5_000);
    await queue.schedule("webhook", "d1", 8_000); // later: already covered
    await queue.schedule("webhook", "d1", 5_000); // the same: once
    await queue.schedule("webhook", "d1", 3_000); // earlier: moves the job
    expect(queue.scheduled).toBe(1);
    clock.advance(60_000);
    await queue.idle();
    expect(runs).toEqual([["webhook", "d1", 3_000]]);
    // Once it ran, asking again schedules a new run.
    await queue.schedule("webhook", "d1", 70_000);
    clock.advance(20_000);
    await queue.idle();
    expect(runs.map((r) => r[2])).toEqual([3_000, 70_000]);
  });

  it("runs jobs in time order, kinds apart, each on its kind's handler", async () => {
    const { clock, queue, runs, record } = setup(0);
    queue.process("task", record("task"));
    queue.process("webhook", record("webhook"));
    await queue.schedule("task", "a", 30);
    await queue.schedule("webhook", "a", 10);
    await queue.schedule("task", "b", 20);
    clock.advance(100);
    await queue.idle();
    expect(runs).toEqual([
      ["webhook", "a", 10],
      ["task", "b", 20],
      ["task", "a", 30],
    ]);
  });

  it("a job due before its kind has a handler waits for process()", async () => {
    const { clock, queue, runs, record } = setup();
    await queue.schedule("task", "early", 1_500);
    clock.advance(1_000);
    expect(runs).toEqual([]);
    queue.process("task", record("task"));
    await queue.idle();
    expect(runs).toEqual([["task", "early", 2_000]]);
  });

  it("never runs one (kind, id) twice at once: a job due meanwhile runs right after", async () => {
    const { clock, queue } = setup(0);
    let running = 0;
    let most = 0;
    let runs = 0;
    let release: () => void = () => {};
    queue.process("task", async () => {
      runs++;
      running++;
      most = Math.max(most, running);
      if (runs === 1) await new Promise<void>((resolve) => (release = resolve));
      running--;
    });
    await queue.schedule("task", "t", 10);
    clock.advance(10);
    await queue.schedule("task", "t", 20);
    clock.advance(10);
    await sleep(5);
    expect(runs).toBe(1);
    release();
    await queue.idle();
    expect(runs).toBe(2);
    expect(most).toBe(1);
  });

  it("a handler that throws is reported and the queue carries on", async () => {
    const { clock, queue, errors, runs, record } = setup(0);
    queue.process("task", async (id) => {
      if (id === "bad") throw new Error("boom");
      await record("task")(id);
    });
    await queue.schedule("task", "bad", 5);
    await queue.schedule("task", "good", 6);
    clock.advance(10);
    await queue.idle();
    expect(errors).toHaveLength(1);
    expect(runs).toEqual([["task", "good", 6]]);
  });

  it("close() drops jobs not yet due and waits for running ones", async () => {
    const { clock, queue } = setup(0);
    let finished = 0;
    queue.process("task", async () => {
      await sleep(20);
      finished++;
    });
    await queue.schedule("task", "now", 0);
    await queue.schedule("task", "later", 1_000);
    clock.advance(0);
    await queue.close();
    expect(finished).toBe(1);
    expect(clock.pending).toBe(0);
    await queue.schedule("task", "after-close", 0);
    clock.advance(10_000);
    await sleep(30);
    expect(finished).toBe(1);
  });

  it("on the system clock, a job runs after its delay (and keeps no process alive)", async () => {
    const queue = new MemoryWorkQueue();
    const ran: number[] = [];
    queue.process("task", async () => {
      ran.push(Date.now());
    });
    const at = Date.now() + 40;
    await queue.schedule("task", "real", at);
    await until(() => ran.length > 0);
    expect(ran[0]).toBeGreaterThanOrEqual(at - 2);
    await queue.close();
  });

  it("openWorkQueue is in process without redis_url", async () => {
    const queue = openWorkQueue({}, { clock: new ManualClock() });
    expect(queue).toBeInstanceOf(MemoryWorkQueue);
    await queue.close();
  });
});

describe.skipIf(!redisUp)("BullMqWorkQueue (local Redis)", () => {
  // Every test under its own key prefix, removed afterwards.
  const prefixes: string[] = [];
  const opened: BullMqWorkQueue[] = [];
  const open = (prefix: string, concurrency = 8) => {
    // The first add also connects and loads BullMQ's scripts: on a loaded machine that can pass
    // the shipped 1 s bound, which these tests (about jobs, not the bound) do not test.
    const queue = new BullMqWorkQueue({
      url: REDIS_URL,
      prefix,
      concurrency,
      scheduleTimeoutMs: 15_000,
    });
    opened.push(queue);
    return queue;
  };
  const newPrefix = () => {
    const prefix = `iltest-${randomBytes(4).toString("hex")}`;
    prefixes.push(prefix);
    return prefix;
  };

  afterAll(async () => {
    await Promise.all(opened.map((q) => q.close()));
    for (const prefix of prefixes) {
      for (const kind of ["task", "webhook"] as const) {
        const queue = new Queue(kind, { connection: { url: REDIS_URL }, prefix });
        await queue.obliterate({ force: true });
        await queue.close();
      }
    }
  });

  it("job ids are valid for BullMQ and differ by kind, id and time", () => {
    const ids = [
      jobIdOf("task", "a:b", 1),
      jobIdOf("task", "a:b", 2),
      jobIdOf("webhook", "a:b", 1),
      jobIdOf("task", "a_b", 1),
      jobIdOf("task", "123", 1),
    ];
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).not.toContain(":");
      expect(id).not.toMatch(/^\d+$/);
    }
  });

  it("runs a delayed job once at its time, however often it was scheduled", async () => {
    const prefix = newPrefix();
    const gatewayA = open(prefix);
    const gatewayB = open(prefix);
    const runs: [string, number][] = [];
    gatewayA.process("task", async (id) => {
      runs.push([id, Date.now()]);
    });
    const at = Date.now() + 1_000;
    // Asked for three times, by two gateways: one job.
    await gatewayA.schedule("task", "task_1", at);
    await gatewayA.schedule("task", "task_1", at);
    await gatewayB.schedule("task", "task_1", at);
    // Not early: checked on the run's own time below, not by looking before `at` (on a loaded
    // machine the three schedules alone can take until then).
    await until(() => runs.length > 0);
    await sleep(600);
    expect(runs).toHaveLength(1);
    expect(runs[0]?.[0]).toBe("task_1");
    expect(runs[0]?.[1]).toBeGreaterThanOrEqual(at - 5);
  });

  it("two gateways share the work: each job is handled by exactly one", async () => {
    const prefix = newPrefix();
    const gateways = [open(prefix, 1), open(prefix, 1)];
    const handled = new Map<string, number[]>();
    gateways.forEach((queue, gateway) => {
      queue.process("webhook", async (id) => {
        handled.set(id, [...(handled.get(id) ?? []), gateway]);
        await sleep(30);
      });
    });
    const ids = Array.from({ length: 16 }, (_, i) => `whd_${i}`);
    const at = Date.now() + 100;
    for (const id of ids) await gateways[0]?.schedule("webhook", id, at);
    await until(() => handled.size === ids.length, 10_000);
    await sleep(300);
    expect([...handled.keys()].sort()).toEqual([...ids].sort());
    for (const [id, by] of handled) expect(by, id).toHaveLength(1);
    const counts = [0, 1].map((g) => [...handled.values()].filter((by) => by[0] === g).length);
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts[1]).toBeGreaterThan(0);
  });

  it("the same row at two times is two jobs; close() lets a running job finish", async () => {
    const prefix = newPrefix();
    const queue = open(prefix);
    const runs: string[] = [];
    let finished = 0;
    queue.process("task", async (id) => {
      runs.push(id);
      await sleep(100);
      finished++;
    });
    const now = Date.now();
    await queue.schedule("task", "t", now);
    await queue.schedule("task", "t", now + 50);
    await until(() => runs.length === 2);
    await queue.close();
    expect(finished).toBe(2);
  });

  it("openWorkQueue chooses BullMQ when redis_url is set", async () => {
    const queue = openWorkQueue({ redis_url: REDIS_URL }, { prefix: newPrefix() });
    expect(queue).toBeInstanceOf(BullMqWorkQueue);
    await queue.close();
  });
});
