import OpenAI from "openai";
import type { Response as ApiResponse } from "openai/resources/responses/responses";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  auth,
  eventuallyAsync,
  KEY,
  postJson,
  type Stack,
  startStack,
  UPSTREAM_KEY,
} from "./stack.ts";
import { type Json, TOOL } from "./wire.ts";

// Issue 25: the Responses API with state, through the official `openai` SDK as clients use it.
// `store` (default true) keeps each response per user; `previous_response_id` rebuilds the
// conversation for whichever upstream serves the next turn; `item_reference` finds stored items;
// retrieve, delete, input_items, background and cancel work on every upstream.

const BARE = { "x-interlingua-envelope": "bare" };
const BOB_KEY = "sk-test-bob";
/** A key whose quota covers no call: refused (402) once its stored response is written. */
const POOR_KEY = "sk-test-poor";

const UPSTREAMS = [
  { protocol: "openai chat", model: "txtD-r1-250528", path: /\/v1\/chat\/completions$/ },
  { protocol: "anthropic", model: "txtB-sonnet-4-6", path: /\/v1\/messages$/ },
  { protocol: "gemini", model: "txtC-2.5-pro", path: /:(stream)?[gG]enerateContent/ },
  { protocol: "openai-responses", model: "txtA-5.2-pro", path: /\/v1\/responses$/ },
] as const;

/** `store` is in OpenAI's Response object, though the SDK's type leaves it out. */
const storeOf = (response: object): unknown => (response as { store?: unknown }).store;

const WEATHER_TOOL = {
  type: "function" as const,
  name: TOOL.name,
  description: TOOL.description,
  parameters: TOOL.parameters,
  strict: null,
};

describe("stored responses through the openai SDK", () => {
  let stack: Stack;
  let client: OpenAI;
  let bob: OpenAI;
  beforeAll(async () => {
    stack = await startStack({
      users: [
        { id: "alice", quota: 1_000_000_000_000 },
        { id: "bob", quota: 1_000_000_000_000 },
      ],
      tokens: [
        { key: KEY, user: "alice", unlimited: true },
        { key: BOB_KEY, user: "bob", unlimited: true },
        { key: POOR_KEY, user: "bob", quota: 1 },
      ],
      extraChannels: (url) => [
        {
          name: "or",
          protocol: "openai-responses",
          base_url: url,
          api_key: UPSTREAM_KEY,
          models: ["txtA-5.2-pro"],
        },
      ],
    });
    const options = {
      baseURL: `${stack.gateway.url}/v1`,
      defaultHeaders: BARE,
      maxRetries: 0,
      timeout: 10_000,
    };
    client = new OpenAI({ apiKey: KEY, ...options });
    bob = new OpenAI({ apiKey: BOB_KEY, ...options });
  });
  afterAll(() => stack.close());

  const upstreamBodies = (path: RegExp): Json[] =>
    stack.sim.requests.filter((r) => path.test(r.path)).map((r) => r.body as Json);
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (e: unknown) => e,
    );

  for (const { protocol, model, path } of UPSTREAMS) {
    describe(`to ${protocol} (${model})`, () => {
      for (const streamed of [false, true]) {
        it(`a tool loop by previous_response_id carries the history and its reasoning (${streamed ? "stream" : "non-stream"})`, async () => {
          const first = {
            model,
            input: "weather in Paris? [[tool]]",
            tools: [WEATHER_TOOL],
            reasoning: { effort: "high" as const, summary: "auto" as const },
          };
          const rsp: ApiResponse = streamed
            ? await client.responses.stream(first).finalResponse()
            : await client.responses.create(first);
          expect(rsp.id).toMatch(/^resp_/);
          expect(storeOf(rsp)).toBe(true);
          const call = rsp.output.find((item) => item.type === "function_call");
          if (call?.type !== "function_call") throw new Error("no function_call item");
          for (const item of rsp.output) expect(item.id).toMatch(/^(rs|fc|msg)_/);
          const carried = rsp.output.flatMap((item) =>
            item.type === "reasoning" && item.encrypted_content ? [item.encrypted_content] : [],
          );
          if (protocol !== "openai chat") expect(carried.length).toBeGreaterThan(0);

          // Straight after the first turn (a stream's record may still be being written).
          const second = await client.responses.create({
            model,
            previous_response_id: rsp.id,
            input: [{ type: "function_call_output", call_id: call.call_id, output: '{"temp":21}' }],
            tools: [WEATHER_TOOL],
          });
          expect(second.status).toBe("completed");
          expect(second.previous_response_id).toBe(rsp.id);
          expect(second.output_text).toContain("21");
          // The upstream was given the whole conversation: the question, the call, its output.
          const upstream = JSON.stringify(upstreamBodies(path).at(-1));
          expect(upstream).toContain("weather in Paris?");
          // Gemini names calls by function, the others by id.
          expect(upstream).toContain(protocol === "gemini" ? call.name : call.call_id);
          expect(upstream).toContain("temp");
          for (const signature of carried) {
            if (protocol === "openai-responses" || protocol === "anthropic") {
              expect(upstream).toContain(JSON.stringify(signature).slice(1, 40));
            }
          }
        });
      }

      it("retrieve, input_items (paged), delete", async () => {
        const rsp = await client.responses.create({ model, input: "remember me" });
        const got = await client.responses.retrieve(rsp.id);
        expect(got.id).toBe(rsp.id);
        expect(got.status).toBe("completed");
        expect(got.output_text).toBe(rsp.output_text);
        expect(got.output.map((item) => item.id)).toEqual(rsp.output.map((item) => item.id));

        const next = await client.responses.create({
          model,
          previous_response_id: rsp.id,
          input: "and again",
        });
        // OpenAI lists the whole conversation the response answered, newest first by default.
        const page = await client.responses.inputItems.list(next.id);
        const texts = page.data.map((item) => JSON.stringify(item));
        // The question, what the model answered (reasoning too, for a reasoning model), and more.
        const size = rsp.output.length + 2;
        expect(page.data).toHaveLength(size);
        expect(texts[0]).toContain("and again");
        expect(texts[size - 1]).toContain("remember me");
        expect(page.data.slice(1, -1).map((item) => item.id)).toEqual(
          rsp.output.map((item) => item.id).reverse(),
        );
        const asc = await client.responses.inputItems.list(next.id, { order: "asc", limit: 1 });
        expect(asc.data).toHaveLength(1);
        expect(asc.has_more).toBe(true);
        expect(JSON.stringify(asc.data[0])).toContain("remember me");
        const after = await client.responses.inputItems.list(next.id, {
          order: "asc",
          limit: 1,
          after: asc.data[0]?.id as string,
        });
        expect(after.data[0]?.id).toBe(rsp.output[0]?.id);
        // The SDK's auto-paging walks every page.
        const all: string[] = [];
        for await (const item of client.responses.inputItems.list(next.id, { limit: 1 })) {
          all.push(item.id as string);
        }
        expect(all).toEqual(page.data.map((item) => item.id));

        await client.responses.delete(rsp.id);
        expect(await failure(client.responses.retrieve(rsp.id))).toBeInstanceOf(
          OpenAI.NotFoundError,
        );
        // The later response keeps its own copy of the conversation.
        expect((await client.responses.retrieve(next.id)).id).toBe(next.id);
      });
    });
  }

  it("a conversation moves between model families by previous_response_id", async () => {
    let previous: string | undefined;
    const families = ["txtB-sonnet-4-6", "txtC-2.5-pro", "txtA-5.2-pro", "txtD-r1-250528"];
    for (const [i, model] of families.entries()) {
      const rsp: ApiResponse = await client.responses.create({
        model,
        input: `turn ${i} [[tool]]`,
        tools: [WEATHER_TOOL],
        reasoning: { effort: "high" },
        ...(previous === undefined ? {} : { previous_response_id: previous }),
      });
      const call = rsp.output.find((item) => item.type === "function_call");
      if (call?.type !== "function_call") throw new Error(`no call from ${model}`);
      const answered = await client.responses.create({
        model,
        previous_response_id: rsp.id,
        input: [{ type: "function_call_output", call_id: call.call_id, output: `sunny ${i}` }],
      });
      expect(answered.status, model).toBe("completed");
      previous = answered.id;
    }
    // Another family's signed reasoning is left out of what the upstream is sent, and said so.
    const { response: moved } = await client.responses
      .create({ model: "txtB-sonnet-4-6", previous_response_id: previous ?? null, input: "done?" })
      .withResponse();
    expect(moved.headers.get("x-interlingua-warnings")).toContain("input.reasoning=dropped");
    const sent = JSON.stringify(upstreamBodies(/\/v1\/messages$/).at(-1));
    expect(sent).toContain("turn 2");
    expect(sent).not.toContain("interlingua.signature");
    const items = await client.responses.inputItems.list(previous as string, { order: "asc" });
    const text = JSON.stringify(items.data);
    for (const i of [0, 1, 2, 3]) {
      expect(text).toContain(`turn ${i}`);
      expect(text).toContain(`sunny ${i}`);
    }
  });

  it("item_reference resolves stored items by id (messages, calls, reasoning with its signature)", async () => {
    const rsp = await client.responses.create({
      model: "txtB-sonnet-4-6",
      input: "weather in Rome? [[tool]]",
      tools: [WEATHER_TOOL],
      reasoning: { effort: "high" },
    });
    const reasoning = rsp.output.find((item) => item.type === "reasoning");
    const call = rsp.output.find((item) => item.type === "function_call");
    if (reasoning?.type !== "reasoning" || call?.type !== "function_call") {
      throw new Error("no reasoning or call");
    }
    const input = await client.responses.inputItems.list(rsp.id);
    const question = input.data[0]?.id as string;
    // As the Vercel AI SDK sends a stored step's items back: by reference.
    const second = await client.responses.create({
      model: "txtB-sonnet-4-6",
      input: [
        { type: "item_reference", id: question },
        { type: "item_reference", id: reasoning.id },
        { type: "item_reference", id: call.id as string },
        { type: "function_call_output", call_id: call.call_id, output: "warm" },
      ],
      tools: [WEATHER_TOOL],
    });
    expect(second.status).toBe("completed");
    const body = upstreamBodies(/\/v1\/messages$/).at(-1) as Json;
    const blocks = (body.messages as Json[]).flatMap((m) =>
      Array.isArray(m.content) ? m.content : [],
    );
    expect(blocks.find((b: Json) => b.type === "thinking")?.signature).toBe(
      reasoning.encrypted_content,
    );
    expect(JSON.stringify(body.messages)).toContain("weather in Rome?");

    const missing = await failure(
      client.responses.create({
        model: "txtB-sonnet-4-6",
        input: [{ type: "item_reference", id: "msg_nope" }],
      }),
    );
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect((missing as Error).message).toContain("msg_nope");
  });

  it("another user's response is a 404 everywhere; store: false keeps nothing", async () => {
    const rsp = await client.responses.create({ model: "txtA-5", input: "mine" });
    for (const attempt of [
      bob.responses.retrieve(rsp.id),
      bob.responses.delete(rsp.id),
      bob.responses.inputItems.list(rsp.id),
      bob.responses.cancel(rsp.id),
      bob.responses.create({ model: "txtA-5", input: "x", previous_response_id: rsp.id }),
    ]) {
      expect(await failure(attempt)).toBeInstanceOf(OpenAI.NotFoundError);
    }
    const bobMessage = rsp.output.find((i) => i.type === "message")?.id as string;
    expect(
      await failure(
        bob.responses.create({
          model: "txtA-5",
          input: [{ type: "item_reference", id: bobMessage }],
        }),
      ),
    ).toBeInstanceOf(OpenAI.NotFoundError);
    expect((await client.responses.retrieve(rsp.id)).id).toBe(rsp.id);

    const unstored = await client.responses.create({ model: "txtA-5", input: "x", store: false });
    expect(storeOf(unstored)).toBe(false);
    expect(await failure(client.responses.retrieve(unstored.id))).toBeInstanceOf(
      OpenAI.NotFoundError,
    );
    const streamed = await client.responses
      .stream({ model: "txtA-5", input: "y", store: false })
      .finalResponse();
    expect(storeOf(streamed)).toBe(false);
    expect(await failure(client.responses.retrieve(streamed.id))).toBeInstanceOf(
      OpenAI.NotFoundError,
    );
    // store: false still reads a stored conversation; it only keeps nothing new.
    const continued = await client.responses.create({
      model: "txtA-5",
      input: "more",
      previous_response_id: rsp.id,
      store: false,
    });
    expect(continued.status).toBe("completed");
    expect(JSON.stringify(upstreamBodies(/\/v1\/chat\/completions$/).at(-1))).toContain("mine");
  });

  // A stream cut in the middle of a function call: the stored response keeps what was finished,
  // never the half call as if complete (a later turn would replay it upstream as finished).
  for (const { model, fault, path } of [
    { model: "txtA-5", fault: "reset-after=4", path: /\/v1\/chat\/completions$/ },
    { model: "txtB-sonnet-4-6", fault: "reset-after=5", path: /\/v1\/messages$/ },
    { model: "txtA-5.2-pro", fault: "reset-after=4", path: /\/v1\/responses$/ },
  ]) {
    it(`a stream cut inside a function call keeps no half call (${model})`, async () => {
      const tool = {
        ...WEATHER_TOOL,
        parameters: {
          type: "object",
          properties: { city: { type: "string" }, country: { type: "string" } },
          required: ["city", "country"],
        },
      };
      const stream = await client.responses.create({
        model,
        input: `weather [[tool:get_weather]] [[fault:${fault}]]`,
        tools: [tool],
        stream: true,
      });
      let id = "";
      let argumentDeltas = 0;
      await failure(
        (async () => {
          for await (const event of stream) {
            if ("response" in event) id = event.response.id;
            if (event.type === "response.function_call_arguments.delta") argumentDeltas++;
          }
        })(),
      );
      expect(argumentDeltas).toBeGreaterThan(0);
      const stored = await eventuallyAsync(
        () => client.responses.retrieve(id),
        (row) => row.status === "failed",
      );
      expect(stored.output.filter((item) => item.type === "function_call")).toEqual([]);
      // (Anthropic joins the two user turns, so the simulator's fault applies again: only what
      // reached it matters here.)
      await failure(client.responses.create({ model, input: "go on", previous_response_id: id }));
      const sent = JSON.stringify(upstreamBodies(path).at(-1));
      expect(sent).toContain("weather");
      expect(sent).not.toContain("sample city");
    });
  }

  it("background: queued at once, polled to completion; cancel stops a running one", async () => {
    const queued = await client.responses.create({
      model: "txtB-sonnet-4-6",
      input: "in the background",
      background: true,
    });
    expect(queued.background).toBe(true);
    expect(["queued", "in_progress"]).toContain(queued.status);
    const done = await eventuallyAsync(
      () => client.responses.retrieve(queued.id),
      (r) => r.status === "completed",
      8000,
    );
    expect(done.output_text).toContain("echo: in the background");
    expect(done.background).toBe(true);

    // A slow upstream (first byte after 5 s): cancelled while it runs.
    const slow = await client.responses.create({
      model: "txtB-sonnet-4-6",
      input: "slow one [[fault:latency=5000]]",
      background: true,
    });
    await eventuallyAsync(
      () => client.responses.retrieve(slow.id),
      (r) => r.status === "in_progress",
      5000,
    );
    const cancelled = await client.responses.cancel(slow.id);
    expect(cancelled.status).toBe("cancelled");
    expect((await client.responses.retrieve(slow.id)).status).toBe("cancelled");
    // A foreground response cannot be cancelled (as OpenAI answers).
    const fg = await client.responses.create({ model: "txtA-5", input: "fg" });
    expect(await failure(client.responses.cancel(fg.id))).toBeInstanceOf(OpenAI.BadRequestError);
    expect(
      await failure(
        client.responses.create({ model: "txtA-5", input: "x", background: true, store: false }),
      ),
    ).toBeInstanceOf(OpenAI.BadRequestError);
  });

  it("background: a refusal when it runs is recorded once, with its own code", async () => {
    // Accepted when queued (the model exists); the file it names is found missing when it runs.
    const finish = vi.spyOn(stack.gateway.services.store.responses, "finish");
    try {
      const queued = await client.responses.create({
        model: "txtB-sonnet-4-6",
        input: [
          {
            role: "user",
            content: [{ type: "input_file", file_id: "AbCdEfGhIjKlMnOpQrStUvWxYz012345.pdf" }],
          },
        ],
        background: true,
      });
      const failed = await eventuallyAsync(
        () => client.responses.retrieve(queued.id),
        (r) => r.status === "failed",
        8000,
      );
      expect(failed.error?.message).toMatch(/does not exist/);
      const writes = finish.mock.calls.filter(([id]) => id === queued.id);
      expect(writes.map(([, end]) => end.status)).toEqual(["failed"]);
    } finally {
      finish.mockRestore();
    }
  });

  it("a foreground response refused for quota is kept failed, once", async () => {
    const finish = vi.spyOn(stack.gateway.services.store.responses, "finish");
    try {
      const refused = await postJson(
        `${stack.gateway.url}/v1/responses`,
        { model: "txtA-5", input: "too dear" },
        { ...auth(POOR_KEY), ...BARE },
      );
      expect(refused.status).toBe(402);
      // (A call of an earlier test still ending elsewhere would not name this model.)
      const writes = finish.mock.calls.filter(([, end]) => end.body["model"] === "txtA-5");
      expect(writes.map(([, end]) => end.status)).toEqual(["failed"]);
    } finally {
      finish.mockRestore();
    }
  });

  it("a channel key an upstream echoes is kept redacted, as the client got it", async () => {
    const rsp = await client.responses.create({ model: "txtA-5", input: `say ${UPSTREAM_KEY}` });
    expect(rsp.output_text).not.toContain(UPSTREAM_KEY);
    const row = await stack.gateway.services.store.responses.get(rsp.id, "alice", Date.now());
    expect(JSON.stringify(row?.body)).toContain("echo: say");
    expect(JSON.stringify(row?.body)).not.toContain(UPSTREAM_KEY);
    const output = await stack.gateway.services.store.responses.items(rsp.id, true);
    expect(JSON.stringify(output)).not.toContain(UPSTREAM_KEY);
  });

  it("the spec envelope: the same stored response, wrapped", async () => {
    const created = await postJson(`${stack.gateway.url}/v1/responses`, {
      model: "txtA-5",
      input: "spec client",
    });
    expect(created.status, created.text).toBe(200);
    expect(created.json.data.choices[0].message.content).toContain("echo: spec client");
    const id = created.json.data.id as string;
    expect(id).toMatch(/^resp_/);
    const got = await fetch(`${stack.gateway.url}/v1/responses/${id}`, { headers: auth() });
    const body = (await got.json()) as Json;
    expect(body.code).toBe(200);
    expect(body.data.id).toBe(id);
    expect(body.data.output_text).toContain("echo: spec client");
    const next = await postJson(`${stack.gateway.url}/v1/responses`, {
      model: "txtA-5",
      input: "and more",
      previous_response_id: id,
    });
    expect(next.status, next.text).toBe(200);
    const bad = await fetch(`${stack.gateway.url}/v1/responses/${id}/input_items?limit=0`, {
      headers: auth(),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Json).error.message).toContain("limit");
  });
});
