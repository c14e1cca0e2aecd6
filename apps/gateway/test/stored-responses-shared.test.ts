import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startProviderSim } from "@interlingua/provider-sim";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayChild, killAll, startGatewayChild } from "./gateway-child.ts";
import { dropSchema, freshSchema, POSTGRES_URL, postgresReachable } from "./storage/drivers.ts";

// Issue 25: two gateway processes on one PostgreSQL schema serve one set of stored responses.
// A conversation started on one continues on the other; a background response whose instance is
// killed mid-call is taken over by the other once its claim lapses, and completes.

const pgUp = await postgresReachable();
const KEY = "sk-shared-alice";

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!pgUp)("stored responses shared by two instances through PostgreSQL", () => {
  const children: GatewayChild[] = [];
  const schema = freshSchema("shared_resp");
  let dir = "";
  let sim: Awaited<ReturnType<typeof startProviderSim>>;
  let a: GatewayChild;
  let b: GatewayChild;
  let config: (name: string) => Record<string, unknown>;
  const client = (gateway: GatewayChild) =>
    new OpenAI({
      apiKey: KEY,
      baseURL: `${gateway.url}/v1`,
      defaultHeaders: { "x-interlingua-envelope": "bare" },
      maxRetries: 0,
      timeout: 15_000,
    });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "gw-shared-resp-"));
    sim = await startProviderSim({ port: 0 });
    config = (name: string) => ({
      listen: { host: "127.0.0.1", port: 0 },
      database_url: `${POSTGRES_URL}?schema=${schema}`,
      files_dir: join(dir, name, "files"),
      // A runner that died is taken over after 1.5 s instead of 15 minutes.
      responses: { background_claim_ms: 1_500 },
      users: [{ id: "alice", quota: 1_000_000_000 }],
      tokens: [{ key: KEY, user: "alice", unlimited: true }],
      channels: [
        {
          name: "an",
          protocol: "anthropic",
          base_url: sim.url,
          api_key: "k-an-1234",
          models: ["txtB-sonnet-4-6"],
        },
        {
          name: "ge",
          protocol: "gemini",
          base_url: sim.url,
          api_key: "k-ge-5678",
          models: ["txtC-2.5-pro"],
        },
      ],
    });
    a = await startGatewayChild(dir, "a", config("a"), children);
    b = await startGatewayChild(dir, "b", config("b"), children);
  }, 120_000);

  afterAll(async () => {
    await killAll(children);
    await sim?.close();
    if (pgUp) await dropSchema(schema);
    await rm(dir, { recursive: true, force: true });
  });

  it("a conversation started on one instance continues, lists and is deleted on the other", async () => {
    const first = await client(a).responses.create({ model: "txtB-sonnet-4-6", input: "one" });
    const second = await client(b).responses.create({
      model: "txtC-2.5-pro",
      input: "two",
      previous_response_id: first.id,
    });
    expect(second.status).toBe("completed");
    const items = await client(a).responses.inputItems.list(second.id, { order: "asc" });
    expect(JSON.stringify(items.data)).toContain('"one"');
    expect(JSON.stringify(items.data)).toContain('"two"');
    await client(b).responses.delete(first.id);
    const gone = await client(a)
      .responses.retrieve(first.id)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(gone).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("a background response survives the crash of the instance running it", async () => {
    // Only A runs it: B is stopped first, so the take-over below is certain.
    b.process.kill("SIGKILL");
    await b.exited;
    const calls = () => sim.requests.filter((r) => r.path.endsWith("/v1/messages")).length;
    const before = calls();
    const queued = await client(a).responses.create({
      model: "txtB-sonnet-4-6",
      // 5 s: the poll below must see the call under way before it ends, on a loaded machine too.
      input: "survive [[fault:latency=5000]]",
      background: true,
    });
    // A took it and its upstream call is under way: kill A mid-call.
    await until(async () => {
      const r = await client(a).responses.retrieve(queued.id);
      return r.status === "in_progress" && calls() > before ? r : undefined;
    }, 20_000);
    a.process.kill("SIGKILL");
    await a.exited;
    // A new instance on the same database takes it over once A's claim lapses.
    const c = await startGatewayChild(dir, "c", config("c"), children);
    const done = await until(async () => {
      const r = await client(c).responses.retrieve(queued.id);
      return r.status === "completed" ? r : undefined;
    }, 40_000);
    expect(done.output_text).toContain("echo: survive");
    // The upstream was asked again by the instance that took over.
    expect(calls()).toBeGreaterThanOrEqual(before + 2);
    // No instance is left up: the next test's response must run where it was created.
    c.process.kill("SIGKILL");
    await c.exited;
    // Bounds on hangs only: a loaded machine starts a child in 20 s or more.
  }, 120_000);

  it("a streamed background response is resumed on another instance across a take-over", async () => {
    // Without Redis: the follower on E reads the database again every 500 ms. D is the only
    // instance up while the response starts, so D runs it: an instance up beside it could claim
    // it first, and killing D would then take nothing over (a soak run saw that once).
    const d = await startGatewayChild(dir, "d", config("d"), children);
    const stream = await client(d).responses.create({
      model: "txtB-sonnet-4-6",
      // About twenty chunks 300 ms apart: D cannot finish before it is killed, even when a
      // loaded machine delays this client's reads by seconds (at 80 ms apart, and once in a
      // soak at ten chunks 300 ms apart, D finished first and no run was taken over); E
      // extends its claim while it runs.
      input: "take over [[len:60]] [[fault:chunk-delay=300]]",
      background: true,
      stream: true,
    });
    let id = "";
    let last = -1;
    for await (const event of stream) {
      if (event.type === "response.created") id = event.response.id;
      last = event.sequence_number;
      if (event.type === "response.output_text.delta") break;
    }
    // D has written what it streamed (every 50 ms); it dies mid-stream.
    await new Promise((resolve) => setTimeout(resolve, 100));
    d.process.kill("SIGKILL");
    await d.exited;
    const e = await startGatewayChild(dir, "e", config("e"), children);
    const resumed = await fetch(`${e.url}/v1/responses/${id}?stream=true&starting_after=${last}`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(resumed.status).toBe(200);
    const text = await resumed.text();
    const events = text
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; sequence_number: number });
    // What D streamed after the client's cursor, then, once D's claim lapsed, E's run of it from
    // its start (response.created again), numbered after D's events.
    const numbers = events.map((event) => event.sequence_number);
    expect(numbers[0]).toBeGreaterThan(last);
    expect(numbers).toEqual([...numbers].sort((x, y) => x - y));
    const rerun = events.findIndex((event) => event.type === "response.created");
    expect(rerun, events.map((event) => event.type).join(" ")).toBeGreaterThanOrEqual(0);
    expect(events.at(-1)?.type).toBe("response.completed");
    const words = events
      .slice(rerun)
      .map((event) =>
        event.type === "response.output_text.delta" ? (event as { delta?: string }).delta : "",
      )
      .join("");
    expect(words.trim().split(/\s+/)).toHaveLength(60);
    expect(text).not.toContain("stream.events=dropped");
    expect((await client(e).responses.retrieve(id)).status).toBe("completed");
  }, 120_000);
});
