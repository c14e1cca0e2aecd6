import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  filterRelay,
  relayResponse,
  writeRelaysDirectly,
  writesDirectly,
} from "../src/stream/direct-relay.ts";
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

/** The app tells its relay whether the server writes it (an explicit binding, nothing probed). */
function app(seen: boolean[]) {
  const hono = new Hono();
  hono.use("*", async (c, next) => {
    await next();
    filterRelay(c.res, upper, (value) => value.toUpperCase());
    c.res.headers.set("x-later", "set after");
  });
  hono.get("/relay", (c) => {
    const direct = writesDirectly(c.env);
    seen.push(direct);
    return relayResponse(
      twoChunks,
      { status: 201, headers: { "content-type": "text/event-stream", "x-made": "with" } },
      direct,
    );
  });
  return hono;
}

describe("relayed responses", () => {
  const seen: boolean[] = [];
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createAdaptorServer({ fetch: writeRelaysDirectly(app(seen).fetch) }) as Server;
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => void server.close());

  it("on the Node server: written directly, filtered, with the headers set later", async () => {
    const res = await fetch(`${base}/relay`);
    expect(seen.at(-1)).toBe(true);
    expect(res.status).toBe(201);
    expect(res.headers.get("x-made")).toBe("WITH");
    expect(res.headers.get("x-later")).toBe("set after");
    expect(await res.text()).toBe("DATA: A\n\nDATA: B\n\n");
  });

  it("to a fetch-style caller: the same relay as a web-stream body", async () => {
    const res = await app(seen).request("/relay");
    expect(seen.at(-1)).toBe(false);
    expect(res.status).toBe(201);
    expect(res.headers.get("x-made")).toBe("with");
    expect(await res.text()).toBe("DATA: A\n\nDATA: B\n\n");
  });
});
