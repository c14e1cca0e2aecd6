import { describe, expect, it } from "vitest";
import { type Acquired, ChannelSlots } from "./channel-slots.ts";

const channel = { name: "c", maxConnections: 2, queueTimeoutMs: 60_000 };
const held = async (slot: Promise<Acquired> | Acquired) => {
  const got = await slot;
  if (!got.ok) throw new Error(`no slot: ${got.reason}`);
  return got.release;
};

describe("ChannelSlots", () => {
  it("grants up to max_connections at once, then queues first come, first served", async () => {
    const slots = new ChannelSlots();
    const a = await held(slots.acquire(channel));
    await held(slots.acquire(channel));
    const order: string[] = [];
    const inLine = (name: string) =>
      Promise.resolve(slots.acquire(channel)).then((got) => {
        order.push(name);
        return got;
      });
    const third = inLine("third");
    const fourth = inLine("fourth");
    expect(slots.waiting().get("c")).toBe(2);
    a();
    a(); // a second release frees nothing more
    const granted = await third;
    expect(granted.ok).toBe(true);
    expect(order).toEqual(["third"]);
    expect(slots.inUse().get("c")).toBe(2);
    expect(slots.waiting().get("c")).toBe(1);
    if (granted.ok) granted.release();
    expect((await fourth).ok).toBe(true);
    expect(order).toEqual(["third", "fourth"]);
  });

  it("a newcomer does not jump the line while others wait", async () => {
    const slots = new ChannelSlots();
    const one = { ...channel, maxConnections: 1 };
    const first = await held(slots.acquire(one));
    const waiting = slots.acquire(one);
    first();
    // The freed slot went to the waiting call: the newcomer waits behind it.
    const newcomer = slots.acquire(one);
    expect(newcomer).toBeInstanceOf(Promise);
    const release = await held(waiting);
    release();
    expect((await newcomer).ok).toBe(true);
  });

  it("gives way after the queue time, and leaves the line", async () => {
    const slots = new ChannelSlots();
    const quick = { name: "q", maxConnections: 1, queueTimeoutMs: 20 };
    await held(slots.acquire(quick));
    expect(await slots.acquire(quick)).toEqual({ ok: false, reason: "queue-timeout" });
    expect(slots.waiting().get("q")).toBe(0);
    expect(slots.inUse().get("q")).toBe(1);
  });

  it("a call whose client left stops waiting at once", async () => {
    const slots = new ChannelSlots();
    const one = { ...channel, maxConnections: 1 };
    await held(slots.acquire(one));
    const abort = new AbortController();
    const waiting = slots.acquire(one, abort.signal);
    abort.abort();
    expect(await waiting).toEqual({ ok: false, reason: "aborted" });
    expect(slots.waiting().get("c")).toBe(0);
    expect(slots.acquire(one, abort.signal)).toEqual({ ok: false, reason: "aborted" });
  });

  it("channels have separate lines", async () => {
    const slots = new ChannelSlots();
    const one = { name: "x", maxConnections: 1, queueTimeoutMs: 60_000 };
    await held(slots.acquire(one));
    expect((await slots.acquire({ ...one, name: "y" })).ok).toBe(true);
  });
});
