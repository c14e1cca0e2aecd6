import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { type RelayOptions, type RelaySink, type StreamEnd, startRelay } from "./relay.ts";
import type { RelayStage } from "./relay-stage.ts";
import { relayReadable } from "./relay-stream.ts";

const utf8 = new TextEncoder();
const decode = (chunks: Uint8Array[]) => chunks.map((c) => new TextDecoder().decode(c)).join("");

/** Upper-cases what it relays and remembers every chunk it was given. */
function upperStage(keepAlive = ": ka\n\n") {
  const seen: string[] = [];
  const stage: RelayStage = {
    push(chunk) {
      const text = new TextDecoder().decode(chunk);
      seen.push(text);
      return text.toUpperCase();
    },
    end: () => "<END>",
    fail: (error) => `<FAIL ${(error as Error).message}>`,
    keepAlive: () => keepAlive,
  };
  return { stage, seen };
}

function sinkOf(accepts: () => boolean = () => true) {
  const written: Uint8Array[] = [];
  let ended = false;
  const sink: RelaySink = {
    write(bytes) {
      written.push(bytes);
      return accepts();
    },
    end(last) {
      if (last !== undefined) written.push(last);
      ended = true;
    },
    waiting: () => accepts(),
  };
  return { sink, written, ended: () => ended };
}

function setup(limits: Partial<RelayOptions> = {}) {
  const rest = new PassThrough();
  rest.pause();
  let resolveEnd!: (end: StreamEnd) => void;
  const ended = new Promise<StreamEnd>((r) => {
    resolveEnd = r;
  });
  let calls = 0;
  const options: RelayOptions = {
    keepAliveMs: undefined,
    drain: { maxMs: 1000, maxBytes: 100 },
    onEnd: (end) => {
      calls++;
      resolveEnd(end);
    },
    ...limits,
  };
  return { rest, options, ended, calls: () => calls };
}

describe("startRelay", () => {
  it("writes the first chunk at once, every later one as it comes, and ends once", async () => {
    const { rest, options, ended, calls } = setup();
    const { stage } = upperStage();
    const out = sinkOf();
    startRelay({ first: utf8.encode("a"), rest }, stage, options, out.sink);
    expect(decode(out.written)).toBe("A");
    rest.write("b");
    rest.end("c");
    expect(await ended).toEqual({ complete: true, clientDisconnected: false });
    expect([decode(out.written), out.ended(), calls()]).toEqual(["ABC<END>", true, 1]);
  });

  it("ends with the stage's error frames when the upstream fails mid-stream", async () => {
    const { rest, options, ended } = setup();
    const out = sinkOf();
    startRelay({ first: utf8.encode("a"), rest }, upperStage().stage, options, out.sink);
    rest.destroy(new Error("socket reset"));
    expect(await ended).toEqual({
      complete: false,
      clientDisconnected: false,
      readError: "socket reset",
    });
    expect([decode(out.written), out.ended()]).toEqual(["A<FAIL socket reset>", true]);
  });

  it("pauses the upstream while the client takes no more, and goes on when it does", async () => {
    const { rest, options, ended } = setup();
    let open = false;
    const out = sinkOf(() => open);
    const relay = startRelay(
      { first: utf8.encode("a"), rest },
      upperStage().stage,
      options,
      out.sink,
    );
    rest.end("b");
    await new Promise((r) => setTimeout(r, 20));
    expect([decode(out.written), rest.isPaused()]).toEqual(["A", true]);
    open = true;
    relay.resume();
    expect(await ended).toEqual({ complete: true, clientDisconnected: false });
    expect(decode(out.written)).toBe("AB<END>");
  });

  it("after a disconnect reads the upstream to its end through the stage, writing nothing", async () => {
    const { rest, options, ended } = setup();
    const { stage, seen } = upperStage();
    const out = sinkOf(() => false);
    const relay = startRelay({ first: utf8.encode("a"), rest }, stage, options, out.sink);
    relay.detach();
    rest.write("b");
    rest.end("c");
    expect(await ended).toEqual({ complete: true, clientDisconnected: true });
    expect([seen.join(""), decode(out.written), out.ended()]).toEqual(["abc", "A", false]);
  });

  it("reads what arrived in one tick as one chunk: one stage push, one write", async () => {
    const { rest, options, ended } = setup();
    const { stage, seen } = upperStage();
    const out = sinkOf();
    startRelay({ first: utf8.encode("a"), rest }, stage, options, out.sink);
    // As undici hands over an HTTP chunk (an SSE frame) at a time, all in the same tick.
    rest.write("b");
    rest.write("c");
    rest.write("d");
    await new Promise((r) => setImmediate(r));
    // Sent in the tick after it came, not held for more.
    expect([seen, out.written.length]).toEqual([["a", "bcd"], 2]);
    rest.write("e");
    await new Promise((r) => setImmediate(r));
    expect([seen, decode(out.written)]).toEqual([["a", "bcd", "e"], "ABCDE"]);
    rest.end();
    await ended;
    expect(decode(out.written)).toBe("ABCDE<END>");
  });

  it("gives up draining at the byte limit and at the time limit", async () => {
    const bytes = setup({ drain: { maxMs: 1000, maxBytes: 5 } });
    startRelay(
      { first: utf8.encode("a"), rest: bytes.rest },
      upperStage().stage,
      bytes.options,
      sinkOf().sink,
    ).detach();
    bytes.rest.write("0123456789");
    expect(await bytes.ended).toEqual({ complete: false, clientDisconnected: true });
    expect(bytes.rest.destroyed).toBe(true);

    const time = setup({ drain: { maxMs: 20, maxBytes: 100 } });
    startRelay(
      { first: utf8.encode("a"), rest: time.rest },
      upperStage().stage,
      time.options,
      sinkOf().sink,
    ).detach();
    expect(await time.ended).toEqual({ complete: false, clientDisconnected: true });
  });

  it("sends keep-alives only while the upstream is silent", async () => {
    const { rest, options, ended } = setup({ keepAliveMs: 15 });
    const out = sinkOf();
    startRelay({ first: utf8.encode("a"), rest }, upperStage().stage, options, out.sink);
    await new Promise((r) => setTimeout(r, 70));
    rest.end("b");
    await ended;
    const text = decode(out.written);
    expect(text).toMatch(/^A(: ka\n\n)+B<END>$/);
  });

  it("relays a body the upstream already ended while its first chunk was on the way", async () => {
    const { rest, options, ended } = setup();
    rest.end();
    rest.read();
    await new Promise((r) => setImmediate(r));
    const out = sinkOf();
    startRelay({ first: utf8.encode("a"), rest }, upperStage().stage, options, out.sink);
    expect(await ended).toEqual({ complete: true, clientDisconnected: false });
    expect(decode(out.written)).toBe("A<END>");
  });

  it("sends what the upstream delivered behind the first chunk with it, as one piece", async () => {
    const { rest, options, ended } = setup();
    rest.write("b");
    rest.write("c");
    const out = sinkOf();
    const { stage, seen } = upperStage();
    startRelay({ first: utf8.encode("a"), rest }, stage, options, out.sink);
    // Synchronously: nothing already here waits for the stream to flow.
    expect([seen, decode(out.written), out.written.length]).toEqual([["abc"], "ABC", 1]);
    rest.end("d");
    await ended;
    expect(decode(out.written)).toBe("ABCD<END>");
  });

  it("stops reading as soon as the client takes no more", async () => {
    const { rest, options } = setup();
    let accepting = false;
    const out = sinkOf(() => accepting);
    const relay = startRelay(
      { first: utf8.encode("a"), rest },
      upperStage().stage,
      options,
      out.sink,
    );
    rest.write("b");
    rest.write("c");
    await new Promise((r) => setImmediate(r));
    expect([decode(out.written), rest.readableLength]).toEqual(["A", 2]);
    accepting = true;
    relay.resume();
    // At once: what waited is read when the client takes more.
    expect(decode(out.written)).toBe("ABC");
  });
});

describe("relayReadable", () => {
  it("starts on the first read and reads to the end", async () => {
    const { rest, options, ended } = setup();
    let started = 0;
    const body = relayReadable((sink) => {
      started++;
      return startRelay({ first: utf8.encode("a"), rest }, upperStage().stage, options, sink);
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toBe(0);
    setTimeout(() => rest.end("b"), 5);
    expect(await new Response(body).text()).toBe("AB<END>");
    expect(await ended).toEqual({ complete: true, clientDisconnected: false });
  });

  it("a cancel before any read still drains the upstream for its usage", async () => {
    const { rest, options, ended } = setup();
    const { stage, seen } = upperStage();
    const body = relayReadable((sink) =>
      startRelay({ first: utf8.encode("a"), rest }, stage, options, sink),
    );
    await body.cancel();
    rest.end("b");
    expect(await ended).toEqual({ complete: true, clientDisconnected: true });
    expect(seen).toEqual(["a", "b"]);
  });
});
