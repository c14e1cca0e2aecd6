import { describe, expect, it } from "vitest";
import { createLogger } from "../log/logger.ts";
import type { ResponseStore, StoredEvent } from "../storage/response-store.ts";
import { RERUN_GAP, ResponseEvents } from "./response-event-log.ts";

// The recorder of a streamed background response: what it writes, when, and how a run taken
// over numbers its events.

/** The event-log half of a response store, in memory. */
function eventStore() {
  const written: StoredEvent[] = [];
  let warnings: string | undefined;
  const store = {
    appendEvents: async (_id: string, events: readonly StoredEvent[]) => {
      written.push(...events);
    },
    lastEventSeq: async () => written.at(-1)?.seq ?? -1,
    setStreamWarnings: async (_id: string, text: string) => {
      warnings = text;
    },
  } as unknown as ResponseStore;
  return { store, written, warnings: () => warnings };
}

const hub = (store: ResponseStore, maxEvents = 1_000) => {
  const events = new ResponseEvents(createLogger({ level: "silent" }), undefined);
  events.bind(store, { maxEvents, maxBytes: 1_000_000 }, () => {});
  return events;
};

const delta = (text: string) => ({ type: "response.output_text.delta", delta: text });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("recording a background response's stream", () => {
  it("numbers its events, hands them on live, writes them soon and the terminal one last", async () => {
    const { store, written, warnings } = eventStore();
    const events = hub(store);
    const recorder = await events.record("resp_1");
    const live: (StoredEvent | undefined)[] = [];
    recorder.listeners.add((event) => live.push(event));
    recorder.push({ type: "response.created", sequence_number: 99 });
    recorder.push(delta("a"));
    expect(live.map((e) => e?.seq)).toEqual([0, 1]);
    expect(JSON.parse(live[0]?.data ?? "{}")).toMatchObject({ sequence_number: 0 });
    expect(written).toEqual([]);
    await sleep(120);
    expect(written.map((e) => e.seq)).toEqual([0, 1]);
    recorder.push({ type: "response.completed", response: { status: "completed" } });
    recorder.warn("usage.serviceTier=dropped, input.reasoning=dropped");
    await sleep(120);
    // The terminal event waits for the end, so what the stream dropped is written before it.
    expect(written.map((e) => e.seq)).toEqual([0, 1]);
    await recorder.end();
    expect(written.map((e) => e.seq)).toEqual([0, 1, 2]);
    expect(warnings()).toBe("usage.serviceTier=dropped,input.reasoning=dropped");
    expect(live.at(-1)).toBeUndefined();
    expect(events.recorder("resp_1")).toBeUndefined();
  });

  it("holds few events unwritten, and keeps only the terminal one past its bound", async () => {
    const { store, written } = eventStore();
    const recorder = await hub(store, 600).record("resp_2");
    for (let i = 0; i < 500; i++) recorder.push(delta(String(i)));
    // Written at once, not after FLUSH_MS.
    await sleep(0);
    expect(written).toHaveLength(500);
    for (let i = 0; i < 200; i++) recorder.push(delta(String(i)));
    recorder.push({ type: "response.completed", response: { status: "completed" } });
    await recorder.end();
    expect(written).toHaveLength(601);
    expect(written.at(-1)?.seq).toBe(700);
  });

  it("numbers a run taken over past anything the dead run may have streamed unwritten", async () => {
    const { store, written } = eventStore();
    const events = hub(store);
    const dead = await events.record("resp_3");
    for (let i = 0; i < 5; i++) dead.push(delta(String(i)));
    await sleep(120);
    // It streamed more (up to a few hundred events) before it died, never written.
    for (let i = 0; i < 3; i++) dead.push(delta("lost"));
    const again = await events.record("resp_3");
    expect(written.at(-1)?.seq).toBe(4);
    expect(again.firstSeq).toBe(5 + RERUN_GAP);
    expect(RERUN_GAP).toBeGreaterThanOrEqual(500);
  });

  it("forgets a follower that waited in vain", async () => {
    const events = hub(eventStore().store);
    const abort = new AbortController();
    await events.wait("resp_4", 10, abort.signal);
    const woken = events.wait("resp_5", 10_000, abort.signal);
    expect(events.waiting()).toBe(1);
    events.signal("resp_5");
    await woken;
    const left = events.wait("resp_6", 10_000, abort.signal);
    abort.abort();
    await left;
    expect(events.waiting()).toBe(0);
  });
});
