import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { alnumId } from "../core/hash.ts";
import { FIXED_CREATED, post, readAll, sseEvents, sseJson, useSim } from "../testing/http.ts";
import { openReasoning, sealReasoning } from "./responses-reasoning.ts";

const sim = useSim();
const keyed = useSim({ keys: ["sk-good"] });
const AUTH = { authorization: "Bearer sk-test" };
const responses = (body: unknown, headers: Record<string, string> = AUTH) =>
  post(`${sim().url}/v1/responses`, body, headers);

// biome-ignore lint/suspicious/noExplicitAny: reads of the simulator's untyped JSON replies
type Json = Record<string, any>;

const WEATHER = {
  type: "function",
  name: "get_weather",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const REASONING = {
  reasoning: { effort: "high", summary: "auto" },
  include: ["reasoning.encrypted_content"],
  store: false,
};

/** Event types of a recording, with runs of one delta type collapsed to one. */
function eventTypes(types: string[]): string[] {
  return types.filter((type, i) => !(type.endsWith(".delta") && types[i - 1] === type));
}

/** The recording's streams (one JSON event a line, a blank line between turns). */
function recordedStreams(name: string): Json[][] {
  const text = readFileSync(
    new URL(`../../../../fixtures/openai-responses/${name}`, import.meta.url),
    "utf8",
  );
  const streams: Json[][] = [[]];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const event = JSON.parse(line) as Json;
    if (event.type === "response.created" && streams.at(-1)!.length > 0) streams.push([]);
    streams.at(-1)!.push(event);
  }
  return streams;
}

describe("POST /v1/responses", () => {
  const request = { model: "gpt-5.2-pro", instructions: "Be brief.", input: "Hello, simulator!" };

  it("answers a whole Responses object: one message item, usage from ceil(chars / 4)", async () => {
    const response = await responses(request);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    const body = (await response.json()) as Json;
    expect(body).toMatchObject({
      id: `resp_${alnumId(JSON.stringify(request), 48)}`,
      object: "response",
      created_at: FIXED_CREATED,
      status: "completed",
      model: "gpt-5.2-pro",
      instructions: "Be brief.",
      error: null,
      incomplete_details: null,
    });
    expect(body.output).toEqual([
      {
        id: expect.stringMatching(/^msg_/),
        type: "message",
        status: "completed",
        content: [
          { type: "output_text", annotations: [], logprobs: [], text: "echo: Hello, simulator!" },
        ],
        role: "assistant",
      },
    ]);
    // "Be brief." + "Hello, simulator!" = 26 chars -> 7 tokens; the echo is 23 chars -> 6.
    expect(body.usage).toEqual({
      input_tokens: 7,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 6,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 13,
    });
  });

  it("streams OpenAI's event sequence with sequence numbers, deltas adding up to the text", async () => {
    const response = await responses({ ...request, stream: true });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const { text } = await readAll(response);
    const frames = sseEvents(text);
    const events = sseJson(text) as Json[];
    expect(frames.map((f) => f.event)).toEqual(events.map((e) => e.type));
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(eventTypes(events.map((e) => e.type))).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const deltas = events.filter((e) => e.type === "response.output_text.delta");
    expect(deltas.map((e) => e.delta).join("")).toBe("echo: Hello, simulator!");
    expect(events[0]!.response).toMatchObject({ status: "in_progress", output: [], usage: null });
    const whole = (await (await responses(request)).json()) as Json;
    // The same reply as the whole object (ids follow the body, which says `stream`).
    const final = events.at(-1)!.response as Json;
    const withoutIds = (output: Json[]) => output.map(({ id: _id, ...item }) => item);
    expect(withoutIds(final.output)).toEqual(withoutIds(whole.output));
    expect(final.usage).toEqual(whole.usage);
    expect(final.status).toBe(whole.status);
  });

  it("matches the recorded event sequence of a text reply and of a function call", async () => {
    const recorded = recordedStreams("openai-reasoning-encrypted-content.1.chunks.txt");
    const recordedText = recorded.find((s) =>
      s.some((e) => e.type === "response.output_text.delta"),
    );
    const recordedCall = recorded.find((s) => s[2]?.item?.type === "function_call");
    const types = (events: Json[]) => eventTypes(events.map((e) => e.type));

    const text = sseJson((await readAll(await responses({ ...request, stream: true }))).text);
    expect(types(text)).toEqual(types(recordedText!));
    const call = sseJson(
      (
        await readAll(
          await responses({
            model: "m",
            input: "[[tool]] weather?",
            tools: [WEATHER],
            stream: true,
          }),
        )
      ).text,
    );
    expect(types(call)).toEqual(types(recordedCall!));
    // Items have the recorded keys, in progress and done.
    const keys = (e: Json) => Object.keys(e.item).sort();
    expect(keys(call[2]!)).toEqual(keys(recordedCall![2]!));
    expect(keys(call.at(-2)!)).toEqual(keys(recordedCall!.at(-2)!));
    expect(Object.keys((text.at(-1) as Json).response.usage)).toEqual(
      Object.keys(recordedText!.at(-1)!.response.usage),
    );
  });

  it("calls a declared function on [[tool]] and echoes its output on the next turn", async () => {
    const first = (await (
      await responses({ model: "m", input: "[[tool]] weather in Paris?", tools: [WEATHER] })
    ).json()) as Json;
    expect(first.output).toEqual([
      {
        id: expect.stringMatching(/^fc_/),
        type: "function_call",
        status: "completed",
        arguments: expect.any(String),
        call_id: expect.stringMatching(/^call_/),
        name: "get_weather",
      },
    ]);
    expect(JSON.parse(first.output[0].arguments)).toHaveProperty("city");
    const { id: _id, status: _status, ...call } = first.output[0];
    const second = (await (
      await responses({
        model: "m",
        input: [
          { role: "user", content: "[[tool]] weather in Paris?" },
          call,
          { type: "function_call_output", call_id: call.call_id, output: "sunny, 21C" },
        ],
        tools: [WEATHER],
      })
    ).json()) as Json;
    expect(second.output[0].content[0].text).toBe("echo: sunny, 21C");
  });

  it("streams function call arguments as deltas, then done", async () => {
    const events = sseJson(
      (
        await readAll(
          await responses({ model: "m", input: "[[tool]] go", tools: [WEATHER], stream: true }),
        )
      ).text,
    ) as Json[];
    const done = events.find((e) => e.type === "response.function_call_arguments.done")!;
    const deltas = events.filter((e) => e.type === "response.function_call_arguments.delta");
    expect(deltas.map((e) => e.delta).join("")).toBe(done.arguments);
    expect(events.at(-1)!.response.output[0].arguments).toBe(done.arguments);
  });

  it("reasons when an effort is set: summary, encrypted content and reasoning tokens", async () => {
    const body = (await (await responses({ ...request, ...REASONING })).json()) as Json;
    const [reasoning, message] = body.output;
    expect(reasoning).toEqual({
      id: expect.stringMatching(/^rs_/),
      type: "reasoning",
      encrypted_content: expect.stringMatching(/^gAAAAA/),
      summary: [{ type: "summary_text", text: "thinking about: Hello, simulator!" }],
    });
    expect(openReasoning(reasoning.encrypted_content)).toBe("thinking about: Hello, simulator!");
    expect(message.type).toBe("message");
    // 33 chars of reasoning -> 9 tokens, counted in output_tokens.
    expect(body.usage.output_tokens_details).toEqual({ reasoning_tokens: 9 });
    expect(body.usage.output_tokens).toBe(6 + 9);
  });

  it("keeps the encrypted content out without include, and the summary without reasoning.summary", async () => {
    const body = (await (
      await responses({ ...request, reasoning: { effort: "low" } })
    ).json()) as Json;
    expect(body.output[0]).toEqual({ id: expect.any(String), type: "reasoning", summary: [] });
  });

  it("streams the reasoning item with its summary events", async () => {
    const events = sseJson(
      (await readAll(await responses({ ...request, ...REASONING, stream: true }))).text,
    ) as Json[];
    expect(eventTypes(events.map((e) => e.type)).slice(2, 8)).toEqual([
      "response.output_item.added",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.done",
      "response.reasoning_summary_part.done",
      "response.output_item.done",
    ]);
    expect(events[2]!.item.encrypted_content).toMatch(/^gAAAAA/);
    expect(events.at(-1)!.response.usage.output_tokens_details.reasoning_tokens).toBe(9);
  });

  it("accepts its own encrypted content back and refuses a changed one as OpenAI does", async () => {
    const sealed = sealReasoning("earlier thoughts");
    const input = (content: string) => [
      { role: "user", content: "first" },
      { type: "reasoning", id: "rs_1", summary: [], encrypted_content: content },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "ok" }] },
      { role: "user", content: "second" },
    ];
    expect((await responses({ model: "m", input: input(sealed) })).status).toBe(200);
    const changed = await responses({ model: "m", input: input(`${sealed.slice(0, -1)}x`) });
    expect(changed.status).toBe(400);
    expect(await changed.json()).toEqual({
      error: {
        message: "The encrypted content for item rs_1 could not be verified.",
        type: "invalid_request_error",
        param: "input",
        code: "invalid_encrypted_content",
      },
    });
  });

  it("reports cached input tokens for a repeated long prefix", async () => {
    const long = { model: "m", instructions: "x".repeat(5000), input: "cache me" };
    const first = (await (await responses(long)).json()) as Json;
    const second = (await (await responses(long)).json()) as Json;
    expect(first.usage.input_tokens_details.cached_tokens).toBe(0);
    expect(second.usage.input_tokens_details.cached_tokens).toBe(1152);
  });

  it("stops at max_output_tokens with status incomplete", async () => {
    const body = (await (
      await responses({ model: "m", input: "[[len:50]]", max_output_tokens: 3 })
    ).json()) as Json;
    expect(body.status).toBe("incomplete");
    expect(body.incomplete_details).toEqual({ reason: "max_output_tokens" });
    const events = sseJson(
      (
        await readAll(
          await responses({ model: "m", input: "[[len:50]]", max_output_tokens: 3, stream: true }),
        )
      ).text,
    ) as Json[];
    expect(events.at(-1)!.type).toBe("response.incomplete");
  });

  it("refuses server-side state it does not keep, and a body without input", async () => {
    const previous = await responses({ model: "m", input: "hi", previous_response_id: "resp_x" });
    expect(previous.status).toBe(400);
    expect(((await previous.json()) as Json).error.code).toBe("previous_response_not_found");
    const empty = await responses({ model: "m" });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as Json).error.message).toBe(
      "Missing required parameter: 'input'.",
    );
  });

  it("authenticates like the other OpenAI routes", async () => {
    const url = `${keyed().url}/v1/responses`;
    const missing = await post(url, request);
    expect(missing.status).toBe(401);
    const wrong = await post(url, request, { authorization: "Bearer sk-bad" });
    expect(((await wrong.json()) as Json).error.code).toBe("invalid_api_key");
    expect((await post(url, request, { authorization: "Bearer sk-good" })).status).toBe(200);
  });

  it("answers faults in OpenAI's error shape, in a stream as an `error` event", async () => {
    const limited = await responses({ model: "m", input: "[[fault:status=429]] hi" });
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as Json).error.code).toBe("rate_limit_exceeded");
    const cut = await responses({ model: "m", input: "[[fault:error-after=2]] hi", stream: true });
    const frames = sseEvents((await readAll(cut)).text);
    const last = frames.at(-1)!;
    expect(last.event).toBe("error");
    expect(JSON.parse(last.data)).toMatchObject({ type: "error", error: { type: "server_error" } });
  });
});

describe("POST /v1/responses/input_tokens", () => {
  const count = (body: unknown) => post(`${sim().url}/v1/responses/input_tokens`, body, AUTH);

  it("counts the prompt as usage does, with or without a model", async () => {
    const body = { model: "gpt-5", instructions: "Be brief.", input: "Hello, GPT" };
    const response = await count(body);
    expect(response.status).toBe(200);
    const counted = await response.json();
    expect(counted.object).toBe("response.input_tokens");
    const usage = (await (await responses({ ...body, store: false })).json()).usage;
    expect(counted.input_tokens).toBe(usage.input_tokens);
    const { model: _model, ...unnamed } = body;
    expect(await (await count(unnamed)).json()).toEqual(counted);
  });

  it("refuses parameters the count does not take", async () => {
    const response = await count({ model: "gpt-5", input: "hi", store: false });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe("Unknown parameter: 'store'.");
  });
});
