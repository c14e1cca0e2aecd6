import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filterRelay, relayResponse, writeRelay } from "../src/stream/direct-relay.ts";
import type { RelaySink } from "../src/stream/relay.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** A relay that sends two chunks, the second one later. */
const twoChunks = (sink: RelaySink) => {
  sink.write(bytes("data: a\n\n"));
  setTimeout(() => sink.end(bytes("data: b\n\n")), 10);
  return { resume: () => {}, detach: () => {} };
};

const upper = (sink: RelaySink): RelaySink => ({
  write: (chunk) => sink.write(bytes(new TextDecoder().decode(chunk).toUpperCase())),
  end: (last) => sink.end(last && bytes(new TextDecoder().decode(last).toUpperCase())),
  waiting: () => sink.waiting(),
});

/** A relay as the pipeline makes it, filtered, with a header set after it was made. */
function made(direct: boolean) {
  const res = relayResponse(
    twoChunks,
    { status: 201, headers: { "content-type": "text/event-stream", "x-made": "with" } },
    direct,
  );
  filterRelay(res, upper, (value) => value.toUpperCase());
  res.headers.set("x-later", "set after");
  return res;
}

describe("relayed responses", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((_incoming, outgoing) => {
      const res = made(true);
      // Made direct, it has no web stream: only writeRelay can send it.
      expect(res.body).toBeNull();
      writeRelay(outgoing, res as Parameters<typeof writeRelay>[1]);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => void server.close());

  it("on the Node server: written directly, filtered, with the headers set later", async () => {
    const res = await fetch(`${base}/relay`);
    expect(res.status).toBe(201);
    expect(res.headers.get("x-made")).toBe("WITH");
    expect(res.headers.get("x-later")).toBe("set after");
    expect(await res.text()).toBe("DATA: A\n\nDATA: B\n\n");
  });

  it("made for a web-stream body: the same relay, filtered, as the body", async () => {
    const res = made(false);
    expect(res.status).toBe(201);
    expect(res.headers.get("x-made")).toBe("with");
    expect(await res.text()).toBe("DATA: A\n\nDATA: B\n\n");
  });
});
