import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readFirstChunk } from "./read-first-chunk.ts";
import { failureFromError } from "./upstream-failure.ts";

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8");

describe("readFirstChunk", () => {
  it("takes what is already buffered at once and leaves the rest paused", async () => {
    const body = new PassThrough();
    body.write("ab");
    const first = await readFirstChunk(body);
    if (!first.ok) throw first.error;
    expect(text(first.body.first)).toBe("ab");
    body.write("cd");
    await new Promise((r) => setImmediate(r));
    // Paused: nothing was read past the first chunk.
    expect(body.isPaused()).toBe(true);
    expect(text(body.read())).toBe("cd");
  });

  it("waits for the first chunk when nothing is buffered yet", async () => {
    const body = new PassThrough();
    const pending = readFirstChunk(body);
    setImmediate(() => body.write("late"));
    const first = await pending;
    if (!first.ok) throw first.error;
    expect(text(first.body.first)).toBe("late");
    expect(body.isPaused()).toBe(true);
  });

  it("fails on a body that ends or breaks before any data, so another channel can try", async () => {
    const ended = new PassThrough();
    const endedFirst = readFirstChunk(ended);
    ended.end();
    expect(await endedFirst).toMatchObject({ ok: false });

    const broken = new PassThrough();
    const brokenFirst = readFirstChunk(broken);
    broken.destroy(new Error("socket reset"));
    const result = await brokenFirst;
    expect(result.ok).toBe(false);
    if (!result.ok) expect((result.error as Error).message).toBe("socket reset");
  });

  it("gives up on a body silent past the channel's first-byte bound: a timeout, body destroyed", async () => {
    const silent = new PassThrough();
    const started = performance.now();
    const result = await readFirstChunk(silent, 50);
    // The body never speaks: any return at all is the timeout; the bound leaves room for load.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(failureFromError(result.error).kind).toBe("timeout");
    expect(silent.destroyed).toBe(true);
    // In time, the bound changes nothing.
    const prompt = new PassThrough();
    const pending = readFirstChunk(prompt, 1000);
    setImmediate(() => prompt.write("soon"));
    const first = await pending;
    if (!first.ok) throw first.error;
    expect(text(first.body.first)).toBe("soon");
  });
});
