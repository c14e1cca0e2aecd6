import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NewStoredResponse } from "../../src/storage/response-store.ts";
import type { Store } from "../../src/storage/store.ts";
import { type Driver, postgresDriver, postgresReachable, sqliteDriver } from "./drivers.ts";

// Stored responses (issue 25, migration 8) on both databases: scoped to their user, finished
// once (a cancelled one stays cancelled), claimed by one runner at a time, swept when expired.

const pgUp = await postgresReachable();
const drivers: Driver[] = [sqliteDriver, ...(pgUp ? [postgresDriver] : [])];

let seq = 0;
const item = (prefix: string, text: string) => ({
  id: `${prefix}_${++seq}`,
  type: "message",
  role: "user",
  content: [{ type: "input_text", text }],
});

const response = (over: Partial<NewStoredResponse> = {}): NewStoredResponse => ({
  id: `resp_${++seq}`,
  userId: "alice",
  previousId: undefined,
  status: "in_progress",
  body: { object: "response", status: "in_progress" },
  inputItems: [{ item: item("msg", "hello"), origin: undefined }],
  createdAt: 1_000,
  expiresAt: 10_000,
  ...over,
});

describe.each(drivers)("stored responses on $name", (driver) => {
  let store: Store;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ store, drop } = await driver.open());
  });
  afterAll(() => drop());

  it("keeps input then output items in order, each user's own", async () => {
    const r = response();
    await store.responses.begin(r, 1_000);
    const output = [
      { id: `rs_${++seq}`, type: "reasoning", summary: [], encrypted_content: "sig" },
      { id: `msg_${++seq}`, type: "message", role: "assistant", content: [] },
    ];
    const done = await store.responses.finish(
      r.id,
      {
        status: "completed",
        body: { status: "completed" },
        outputItems: output,
        origin: "anthropic",
      },
      2_000,
    );
    expect(done).toBe(true);
    const row = await store.responses.get(r.id, "alice", 2_000);
    expect(row).toMatchObject({ status: "completed", body: { status: "completed" } });
    expect(await store.responses.get(r.id, "bob", 2_000)).toBeUndefined();
    expect((await store.responses.items(r.id, false)).map((e) => e.item.id)).toEqual([
      r.inputItems[0]?.item.id,
    ]);
    const out = await store.responses.items(r.id, true);
    expect(out.map((e) => e.item)).toEqual(output);
    expect(out.map((e) => e.origin)).toEqual(["anthropic", "anthropic"]);
    // Items are found by id for their user only, and not once expired.
    const ids = output.map((o) => o.id);
    expect([...(await store.responses.findItems("alice", ids, 2_000)).keys()].sort()).toEqual(
      [...ids].sort(),
    );
    expect((await store.responses.findItems("bob", ids, 2_000)).size).toBe(0);
    expect((await store.responses.findItems("alice", ids, 10_000)).size).toBe(0);
    expect(await store.responses.get(r.id, "alice", 10_000)).toBeUndefined();
  });

  it("finishes once: a cancelled response stays cancelled", async () => {
    const r = response();
    await store.responses.begin(r, 1_000);
    const cancelled = await store.responses.transition(
      r.id,
      "alice",
      ["queued", "in_progress"],
      "cancelled",
      { status: "cancelled" },
      1_500,
    );
    expect(cancelled).toBe(true);
    const end = { status: "completed" as const, body: {}, outputItems: [] };
    expect(await store.responses.finish(r.id, end, 2_000)).toBe(false);
    expect((await store.responses.get(r.id, "alice", 2_000))?.status).toBe("cancelled");
    expect(await store.responses.transition(r.id, "bob", ["cancelled"], "failed", {}, 2_000)).toBe(
      false,
    );
  });

  it("a background response is claimed by one runner until its claim lapses", async () => {
    const r = response({ status: "queued", backgroundRequest: { wire: { model: "m" } } });
    await store.responses.begin(r, 1_000);
    expect((await store.responses.openBackground(100)).map((o) => o.id)).toContain(r.id);
    const body = () => ({ status: "in_progress" });
    const first = await store.responses.claim(r.id, 1_000, 5_000, body);
    expect(first?.request).toEqual({ wire: { model: "m" } });
    expect(first?.row.background).toBe(true);
    // Another runner (or a duplicate job) gets nothing while the claim holds.
    expect(await store.responses.claim(r.id, 2_000, 6_000, body)).toBeUndefined();
    // Its runner extends it while it runs; a runner whose claim was taken over cannot.
    expect(await store.responses.renewClaim(r.id, 5_000, 7_000, 3_000)).toBe(true);
    expect(await store.responses.claim(r.id, 5_001, 9_000, body)).toBeUndefined();
    expect(await store.responses.renewClaim(r.id, 5_000, 8_000, 3_000)).toBe(false);
    // Past it (the runner died), the next one takes it over.
    expect(await store.responses.claim(r.id, 7_001, 9_000, body)).toBeDefined();
    expect(await store.responses.renewClaim(r.id, 7_000, 12_000, 8_000)).toBe(false);
    // A runner's watch: its own claim holds, a lapsed one or a cancelled response does not.
    expect(await store.responses.holdsClaim(r.id, 9_000)).toBe(true);
    expect(await store.responses.holdsClaim(r.id, 7_000)).toBe(false);
    await store.responses.transition(r.id, "alice", ["in_progress"], "cancelled", {}, 8_500);
    expect(await store.responses.holdsClaim(r.id, 9_000)).toBe(false);
    const foreground = response();
    await store.responses.begin(foreground, 1_000);
    expect(await store.responses.claim(foreground.id, 1_000, 5_000, body)).toBeUndefined();
  });

  it("deletes its items with it, and the sweep takes expired responses", async () => {
    const kept = response({ expiresAt: 50_000 });
    const old = response({ expiresAt: 3_000 });
    await store.responses.begin(kept, 1_000);
    await store.responses.begin(old, 1_000);
    expect(await store.responses.delete(kept.id, "bob")).toBe(false);
    expect(await store.responses.delete(kept.id, "alice")).toBe(true);
    expect(await store.responses.items(kept.id, false)).toEqual([]);
    expect(await store.responses.sweep(4_000, 100)).toBeGreaterThanOrEqual(1);
    expect(await store.responses.items(old.id, false)).toEqual([]);
  });

  it("keeps a streamed background response's events in order, and deletes them with it", async () => {
    const kept = response({ expiresAt: 50_000, backgroundRequest: {}, streamed: true });
    const old = response({ expiresAt: 3_000 });
    await store.responses.begin(kept, 1_000);
    await store.responses.begin(old, 1_000);
    expect(await store.responses.lastEventSeq(kept.id)).toBe(-1);
    expect(await store.responses.get(kept.id, "alice", 1_000)).toMatchObject({
      streamed: true,
      streamWarnings: undefined,
    });
    expect((await store.responses.get(old.id, "alice", 1_000))?.streamed).toBe(false);
    await store.responses.setStreamWarnings(kept.id, "input.reasoning=dropped");
    expect((await store.responses.get(kept.id, "alice", 1_000))?.streamWarnings).toBe(
      "input.reasoning=dropped",
    );
    const events = Array.from({ length: 130 }, (_, i) => ({
      seq: i,
      data: JSON.stringify({ type: "response.output_text.delta", sequence_number: i }),
    }));
    await store.responses.appendEvents(kept.id, events);
    await store.responses.appendEvents(old.id, events.slice(0, 3));
    expect(await store.responses.lastEventSeq(kept.id)).toBe(129);
    expect(await store.responses.events(kept.id, -1, 2)).toEqual(events.slice(0, 2));
    expect(await store.responses.events(kept.id, 120, 100)).toEqual(events.slice(121));
    expect(await store.responses.delete(kept.id, "alice")).toBe(true);
    expect(await store.responses.events(kept.id, -1, 1000)).toEqual([]);
    // A run still going elsewhere writes nothing for a response deleted meanwhile.
    await store.responses.appendEvents(kept.id, events.slice(0, 2));
    expect(await store.responses.lastEventSeq(kept.id)).toBe(-1);
    expect(await store.responses.sweep(4_000, 100)).toBeGreaterThanOrEqual(1);
    expect(await store.responses.lastEventSeq(old.id)).toBe(-1);
  });
});
