import OpenAI from "openai";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, eventuallyAsync, KEY, type Stack, startStack } from "./stack.ts";

// OpenAI's background streaming: `background: true` with `stream: true` streams the events of a
// response that runs on without its client, and `GET /v1/responses/{id}?stream=true&starting_after=N`
// resumes that stream after the event numbered N (docs/responses.md), through the official SDK.

const BARE = { "x-interlingua-envelope": "bare" };
/** Words enough for several chunks, each after 150 ms: a stream that lasts about a second. */
const SLOW = "[[len:40]] [[fault:chunk-delay=150]]";

type Event = ResponseStreamEvent;

const textOf = (events: readonly Event[]): string =>
  events.map((e) => (e.type === "response.output_text.delta" ? e.delta : "")).join("");

/** The raw SSE text of a GET, read to its end. */
async function rawStream(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { headers: { ...auth(), ...BARE } });
  return { status: response.status, text: await response.text() };
}

const sseEvents = (text: string): Record<string, unknown>[] =>
  text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);

describe("streaming a background response, and resuming it", () => {
  let stack: Stack;
  let client: OpenAI;
  beforeAll(async () => {
    // Few events kept per response, so the bound is reached below; a claim shorter than the
    // slow streams below, which their runner extends while they run.
    stack = await startStack({ responses: { stream_events_max: 12, background_claim_ms: 600 } });
    client = new OpenAI({
      apiKey: KEY,
      baseURL: `${stack.gateway.url}/v1`,
      defaultHeaders: BARE,
      maxRetries: 0,
      timeout: 15_000,
    });
  });
  afterAll(() => stack.close());

  it("streams live; a client that leaves resumes after its last event; the response runs on", async () => {
    const stream = await client.responses.create({
      model: "txtB-sonnet-4-6",
      input: `resume me ${SLOW}`,
      background: true,
      stream: true,
    });
    const first: Event[] = [];
    let id = "";
    let statusAtFirstDelta = "";
    for await (const event of stream) {
      first.push(event);
      if (event.type === "response.created") id = event.response.id;
      if (event.type === "response.output_text.delta" && statusAtFirstDelta === "") {
        // Live: the first words arrive while the response is still being made.
        statusAtFirstDelta = (await client.responses.retrieve(id)).status ?? "";
      }
      if (textOf(first).split(" ").length >= 6) break; // The client leaves mid-stream.
    }
    expect(id).toMatch(/^resp_/);
    expect(statusAtFirstDelta).toBe("in_progress");
    expect(first[0]?.type).toBe("response.created");
    expect(first.every((event, i) => event.sequence_number === i)).toBe(true);
    const last = first.at(-1)?.sequence_number ?? -1;

    const rest: Event[] = [];
    const resumed = await client.responses.retrieve(id, { stream: true, starting_after: last });
    for await (const event of resumed) rest.push(event);
    expect(rest[0]?.sequence_number).toBe(last + 1);
    expect(rest.every((event, i) => event.sequence_number === last + 1 + i)).toBe(true);
    const end = rest.at(-1);
    expect(end?.type).toBe("response.completed");
    const words = textOf([...first, ...rest]);
    expect(words.trim().split(/\s+/)).toHaveLength(40);
    if (end?.type === "response.completed") {
      expect(end.response.id).toBe(id);
      expect(end.response.background).toBe(true);
      expect(end.response.output_text ?? words).toBe(words);
    }
    const stored = await client.responses.retrieve(id);
    expect(stored.status).toBe("completed");
    // Run once, though it outlasted its claim (600 ms): its runner kept extending it.
    const all = [...first, ...rest];
    expect(all.filter((event) => event.type === "response.created")).toHaveLength(1);
    const asked = stack.sim.requests.filter((r) => JSON.stringify(r.body).includes("resume me"));
    expect(asked).toHaveLength(1);
  });

  it("replays a finished response's events from the start, past its bound with a warning", async () => {
    const live: Event[] = [];
    const stream = await client.responses.create({
      model: "txtA-5",
      input: "[[len:30]]",
      background: true,
      stream: true,
    });
    for await (const event of stream) live.push(event);
    const id = live[0]?.type === "response.created" ? live[0].response.id : "";
    // The live stream has every event, however many are kept.
    expect(live.length).toBeGreaterThan(12);
    expect(live.every((event, i) => event.sequence_number === i)).toBe(true);
    expect(live.at(-1)?.type).toBe("response.completed");

    const url = `${stack.gateway.url}/v1/responses/${id}?stream=true`;
    const all = await rawStream(url);
    expect(all.status).toBe(200);
    const replayed = sseEvents(all.text);
    // The first 12 events, then only the terminal one (numbered as it was), and the gap said.
    expect(replayed.map((e) => e["sequence_number"])).toEqual([
      ...Array.from({ length: 12 }, (_, i) => i),
      live.length - 1,
    ]);
    expect(replayed.at(-1)?.["type"]).toBe("response.completed");
    // (With what the stream itself said it dropped: chat's service tier has no Responses field.)
    expect(all.text).toMatch(/\n: x-interlingua-warnings: [^\n]*stream\.events=dropped/);
    // A resume within the kept events has no gap to say.
    const tail = await rawStream(`${url}&starting_after=${live.length - 2}`);
    expect(sseEvents(tail.text).map((e) => e["type"])).toEqual(["response.completed"]);
    expect(tail.text).toContain("usage.serviceTier=dropped");
    expect(tail.text).not.toContain("stream.events");
    // A client that read the whole stream gets nothing more, at once.
    const started = Date.now();
    for (const after of [live.length - 1, live.length + 5]) {
      const past = await rawStream(`${url}&starting_after=${after}`);
      expect(past.status).toBe(200);
      expect(sseEvents(past.text)).toEqual([]);
    }
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  /** Starts a streamed background response and reads it on, once its first words came. */
  async function followFromFirstWords(input: string) {
    const stream = await client.responses.create({
      model: "txtB-sonnet-4-6",
      input,
      background: true,
      stream: true,
    });
    const state = { id: "", seen: [] as Event[], following: Promise.resolve() };
    state.following = (async () => {
      for await (const event of stream) {
        state.seen.push(event);
        if (event.type === "response.created") state.id = event.response.id;
      }
    })();
    await eventuallyAsync(
      async () => textOf(state.seen),
      (text) => text.length > 0,
      5_000,
    );
    return state;
  }

  it("a cancel ends every stream following the response", async () => {
    const { id, seen, following } = await followFromFirstWords(`cancel me ${SLOW}`);
    const second: Event[] = [];
    const resumed = (async () => {
      const again = await client.responses.retrieve(id, { stream: true, starting_after: 0 });
      for await (const event of again) second.push(event);
    })();
    const started = Date.now();
    const cancelled = await client.responses.cancel(id);
    expect(cancelled.status).toBe("cancelled");
    await Promise.all([following, resumed]);
    // Both ended at once, well before the response would have (about 1 s of chunks).
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(seen.some((e) => e.type === "response.completed")).toBe(false);
    expect(second.some((e) => e.type === "response.completed")).toBe(false);
    expect((await client.responses.retrieve(id)).status).toBe("cancelled");
  });

  it("a cancel made elsewhere, with no signal to this instance, stops the call within seconds", async () => {
    // Another instance without Redis (or any during a Redis outage) can only change the row: the
    // runner's watch reads it and stops its call. 80 chunks at 150 ms would run 12 s.
    const { id, seen, following } = await followFromFirstWords(
      "cancel me elsewhere [[len:80]] [[fault:chunk-delay=150]]",
    );
    const responses = stack.gateway.services.store.responses;
    const row = await responses.get(id, "alice", Date.now());
    const cancelled = { ...row?.body, status: "cancelled" };
    const started = Date.now();
    expect(
      await responses.transition(id, "alice", ["in_progress"], "cancelled", cancelled, started),
    ).toBe(true);
    await following;
    // The watch checks every second; generous for a loaded machine, far under the 12 s.
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(textOf(seen).trim().split(/\s+/).length).toBeLessThan(80);
    expect(seen.some((e) => e.type === "response.completed")).toBe(false);
    expect((await client.responses.retrieve(id)).status).toBe("cancelled");
  });

  it("says what it dropped, in its headers and at the end of every stream resumed", async () => {
    // Anthropic's signed reasoning cannot go to Gemini: left out, and said so.
    const first = await client.responses.create({
      model: "txtB-sonnet-4-6",
      input: "think first",
      reasoning: { effort: "high" },
    });
    expect(first.output.some((item) => item.type === "reasoning")).toBe(true);
    const created = await fetch(`${stack.gateway.url}/v1/responses`, {
      method: "POST",
      headers: { ...auth(), ...BARE, "content-type": "application/json" },
      body: JSON.stringify({
        model: "txtC-2.5-pro",
        input: "then move",
        previous_response_id: first.id,
        background: true,
        stream: true,
      }),
    });
    expect(created.headers.get("x-interlingua-warnings")).toContain("input.reasoning=dropped");
    const live = await created.text();
    const id = String((sseEvents(live)[0]?.["response"] as { id?: unknown } | undefined)?.id);
    expect(live).toContain(": x-interlingua-warnings: input.reasoning=dropped");
    const resumed = await rawStream(`${stack.gateway.url}/v1/responses/${id}?stream=true`);
    expect(sseEvents(resumed.text).at(-1)?.["type"]).toBe("response.completed");
    expect(resumed.text).toContain(": x-interlingua-warnings: input.reasoning=dropped");
  });

  it("streams only a background response created with stream: true", async () => {
    const polled = await client.responses.create({
      model: "txtA-5",
      input: "not streamed",
      background: true,
    });
    const foreground = await client.responses.create({ model: "txtA-5", input: "fg" });
    for (const id of [polled.id, foreground.id]) {
      const refused = await rawStream(`${stack.gateway.url}/v1/responses/${id}?stream=true`);
      expect(refused.status).toBe(400);
      expect(refused.text).toContain("stream");
    }
    const refused = await rawStream(
      `${stack.gateway.url}/v1/responses/${polled.id}?stream=true&starting_after=-5`,
    );
    expect(refused.status).toBe(400);
    // A response refused when it runs still ends its stream, with response.failed.
    const failing = await fetch(`${stack.gateway.url}/v1/responses`, {
      method: "POST",
      headers: { ...auth(), ...BARE, "content-type": "application/json" },
      body: JSON.stringify({
        model: "txtB-sonnet-4-6",
        input: [
          {
            role: "user",
            content: [{ type: "input_file", file_id: "AbCdEfGhIjKlMnOpQrStUvWxYz012345.pdf" }],
          },
        ],
        background: true,
        stream: true,
      }),
    });
    expect(failing.status).toBe(200);
    const events = sseEvents(await failing.text());
    expect(events.map((e) => e["type"])).toEqual(["response.failed"]);
    expect(events[0]?.["sequence_number"]).toBe(0);
  });
});
