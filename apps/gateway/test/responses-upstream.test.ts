import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, postJson, type Stack, startStack, UPSTREAM_KEY } from "./stack.ts";
import { accumulateChat, accumulateMessages } from "./stream-accumulate.ts";
import { usageRows } from "./usage-rows.ts";
import {
  type ClientFormat,
  type Json,
  parseSse,
  READ_BODY,
  READ_STREAM,
  REQUEST,
  STREAM_HAS_USAGE,
  TOOL,
  WRAPPED,
} from "./wire.ts";

// Every client format against a channel speaking OpenAI's Responses API (`openai-responses`), at
// the simulator: text, tools and tool loops, stream and not; reasoning carried from one turn to
// the next byte for byte; usage billed with its cached and reasoning tokens; upstream errors in
// the client's own shape.

const CLIENTS: ClientFormat[] = ["chat", "responses", "messages", "native"];
const MODEL = "txtA-5.2-pro";
const BARE = { ...auth(), "x-interlingua-envelope": "bare" };

describe("openai-responses upstream: every client format", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(
      {
        extraChannels: (url) => [
          {
            name: "or",
            protocol: "openai-responses",
            base_url: url,
            api_key: UPSTREAM_KEY,
            models: ["txtA-5.2-pro", "txtA-5.2-codex"],
          },
        ],
      },
      // Prompt faults must not open the channel's circuit for the next test.
      { breaker: { failureThreshold: 1000, cooldownMs: 60_000 } },
    );
  });
  afterAll(() => stack.close());

  const upstream = () => stack.sim.requests.filter((r) => r.path === "/v1/responses");
  const lastUpstream = () => upstream().at(-1)?.body as Json;
  const call = (client: ClientFormat, ask: Parameters<(typeof REQUEST)["chat"]>[0]) => {
    const { path, body } = REQUEST[client](ask);
    return postJson(stack.gateway.url + path, body, auth());
  };
  const unwrap = (client: ClientFormat, json: Json) => (WRAPPED[client] ? json.data : json);

  for (const client of CLIENTS) {
    describe(`${client} client`, () => {
      it("non-stream text reaches POST /v1/responses with the channel's Bearer key", async () => {
        const before = upstream().length;
        const res = await call(client, { model: MODEL, text: "hello there", stream: false });
        expect(res.status, res.text).toBe(200);
        expect(READ_BODY[client](unwrap(client, res.json)).text).toBe("echo: hello there");
        const sent = upstream().slice(before);
        expect(sent).toHaveLength(1);
        // The simulator accepts only the channel key; its log redacts it.
        expect(sent[0]!.headers["authorization"]).toBe("[redacted]");
        expect(sent[0]!.body).toMatchObject({ model: MODEL, store: false });
        expect((sent[0]!.body as Json).messages).toBeUndefined();
        expect(JSON.stringify((sent[0]!.body as Json).input)).toContain("hello there");
      });

      it("stream text with usage", async () => {
        const res = await call(client, { model: MODEL, text: "hello stream", stream: true });
        expect(res.status, res.text).toBe(200);
        expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
        const frames = parseSse(res.text);
        expect(READ_STREAM[client](frames).text).toBe("echo: hello stream");
        if (client !== "chat") expect(STREAM_HAS_USAGE[client](frames)).toBe(true);
        expect(lastUpstream().stream).toBe(true);
      });

      it("tool call, stream and not, with flat function tools upstream", async () => {
        const ask = { model: MODEL, text: "weather? [[tool]]", tools: true };
        const plain = await call(client, { ...ask, stream: false });
        expect(plain.status, plain.text).toBe(200);
        expect(READ_BODY[client](unwrap(client, plain.json)).toolNames).toEqual(["get_weather"]);
        expect(lastUpstream().tools).toEqual([
          expect.objectContaining({ type: "function", name: "get_weather" }),
        ]);
        const streamed = await call(client, { ...ask, stream: true });
        expect(streamed.status, streamed.text).toBe(200);
        expect(READ_STREAM[client](parseSse(streamed.text)).toolNames).toEqual(["get_weather"]);
      });
    });
  }

  /** The first turn of a tool loop: the weather tool offered and asked for. */
  async function askForTool(
    client: ClientFormat,
    stream: boolean,
    thinking: boolean,
    headers: Record<string, string>,
  ) {
    const ask = REQUEST[client]({
      model: MODEL,
      text: "weather? [[tool]]",
      stream,
      tools: true,
      thinking,
    });
    const first = await postJson(stack.gateway.url + ask.path, ask.body, headers);
    return { ask, first };
  }

  /** The loop's next turn: the first turn's body with `turns` after its `history` list. */
  const answerTool = (
    ask: { path: string; body: Record<string, unknown> },
    history: string,
    turns: Json[],
    headers: Record<string, string>,
  ) =>
    postJson(
      stack.gateway.url + ask.path,
      { ...ask.body, [history]: [...(ask.body[history] as Json[]), ...turns] },
      headers,
    );

  /** A whole tool loop in each format: the call, then its result, answered with its echo. */
  const LOOPS: Record<ClientFormat, () => Promise<{ first: Json; second: Json }>> = {
    chat: async () => {
      const { ask, first } = await askForTool("chat", false, false, BARE);
      const message = first.json.choices[0].message;
      const second = await answerTool(
        ask,
        "messages",
        [message, { role: "tool", tool_call_id: message.tool_calls[0].id, content: "21C" }],
        BARE,
      );
      return { first: first.json, second: { text: second.json.choices[0].message.content } };
    },
    responses: async () => {
      const { ask, first } = await askForTool("responses", false, false, BARE);
      const calls = first.json.output.filter((item: Json) => item.type === "function_call");
      const second = await answerTool(
        ask,
        "input",
        [
          ...first.json.output,
          { type: "function_call_output", call_id: calls[0].call_id, output: "21C" },
        ],
        BARE,
      );
      return { first: first.json, second: { text: second.json.output_text } };
    },
    messages: async () => {
      const { ask, first } = await askForTool("messages", false, false, auth());
      const use = first.json.content.find((b: Json) => b.type === "tool_use");
      const second = await answerTool(
        ask,
        "messages",
        [
          { role: "assistant", content: first.json.content },
          { role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: "21C" }] },
        ],
        auth(),
      );
      return { first: first.json, second: { text: READ_BODY.messages(second.json).text } };
    },
    native: async () => {
      const { ask, first } = await askForTool("native", false, false, BARE);
      const content = first.json.candidates[0].content;
      const fc = content.parts.find((p: Json) => p.functionCall).functionCall;
      const second = await answerTool(
        ask,
        "contents",
        [
          content,
          {
            role: "user",
            parts: [{ functionResponse: { name: fc.name, response: { result: "21C" } } }],
          },
        ],
        BARE,
      );
      return { first: first.json, second: { text: READ_BODY.native(second.json).text } };
    },
  };

  for (const client of CLIENTS) {
    it(`${client}: a tool loop ends with the function's output sent upstream as function_call_output`, async () => {
      const { second } = await LOOPS[client]();
      const input = lastUpstream().input as Json[];
      const call = input.find((item) => item.type === "function_call");
      const output = input.find((item) => item.type === "function_call_output");
      expect(call).toMatchObject({ name: TOOL.name, call_id: expect.any(String) });
      expect(output.call_id).toBe(call.call_id);
      expect(JSON.stringify(output.output)).toContain("21C");
      expect(second.text).toContain("echo: ");
      expect(second.text).toContain("21C");
    });
  }

  // The oracle of a turn that reasons: the simulator's own reply to that upstream body.
  async function directReply(body: Json): Promise<Json> {
    const res = await postJson(
      `${stack.sim.url}/v1/responses`,
      { ...body, stream: false },
      { authorization: `Bearer ${UPSTREAM_KEY}` },
    );
    expect(res.status, res.text).toBe(200);
    return res.json;
  }

  /** The reasoning item a turn sends upstream: the one the last reply gave, byte for byte. */
  async function expectReasoningCarried(firstUpstream: Json, secondUpstream: Json) {
    expect(firstUpstream.reasoning?.effort).toBeDefined();
    expect(firstUpstream.include).toContain("reasoning.encrypted_content");
    const direct = await directReply(firstUpstream);
    const sealed = direct.output.find((item: Json) => item.type === "reasoning").encrypted_content;
    expect(sealed).toMatch(/^gAAAAA/);
    const replayed = (secondUpstream.input as Json[]).filter((i) => i.type === "reasoning");
    expect(replayed.map((item) => item.encrypted_content)).toEqual([sealed]);
    return sealed as string;
  }

  /** Each loop gives the upstream bodies of its two turns. */
  const THINK_LOOPS: Record<ClientFormat, (stream: boolean) => Promise<[Json, Json]>> = {
    chat: async (stream) => {
      const { ask, first } = await askForTool("chat", stream, true, BARE);
      expect(first.status, first.text).toBe(200);
      const firstUpstream = lastUpstream();
      const message = stream ? accumulateChat(first.text) : first.json.choices[0].message;
      const second = await answerTool(
        ask,
        "messages",
        [
          JSON.parse(JSON.stringify(message)),
          { role: "tool", tool_call_id: message.tool_calls[0].id, content: "21C" },
        ],
        BARE,
      );
      expect(second.status, second.text).toBe(200);
      return [firstUpstream, lastUpstream()];
    },
    responses: async (stream) => {
      const { ask, first } = await askForTool("responses", stream, true, BARE);
      expect(first.status, first.text).toBe(200);
      const firstUpstream = lastUpstream();
      const output: Json[] = stream
        ? parseSse(first.text)
            .map((f) => JSON.parse(f.data))
            .find((e) => e.type === "response.completed").response.output
        : first.json.output;
      const calls = output.filter((item) => item.type === "function_call");
      const second = await answerTool(
        ask,
        "input",
        [...output, { type: "function_call_output", call_id: calls[0].call_id, output: "21C" }],
        BARE,
      );
      expect(second.status, second.text).toBe(200);
      return [firstUpstream, lastUpstream()];
    },
    messages: async (stream) => {
      const { ask, first } = await askForTool("messages", stream, true, auth());
      expect(first.status, first.text).toBe(200);
      const firstUpstream = lastUpstream();
      const content = stream ? accumulateMessages(first.text) : first.json.content;
      const use = content.find((b: Json) => b.type === "tool_use");
      const second = await answerTool(
        ask,
        "messages",
        [
          { role: "assistant", content },
          { role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: "21C" }] },
        ],
        auth(),
      );
      expect(second.status, second.text).toBe(200);
      return [firstUpstream, lastUpstream()];
    },
    native: async (stream) => {
      const { ask, first } = await askForTool("native", stream, true, BARE);
      expect(first.status, first.text).toBe(200);
      const firstUpstream = lastUpstream();
      const parts: Json[] = stream
        ? parseSse(first.text).flatMap(
            (f) => JSON.parse(f.data).candidates?.[0]?.content?.parts ?? [],
          )
        : first.json.candidates[0].content.parts;
      const fc = parts.find((p) => p.functionCall).functionCall;
      const second = await answerTool(
        ask,
        "contents",
        [
          { role: "model", parts },
          {
            role: "user",
            parts: [{ functionResponse: { name: fc.name, response: { result: "21C" } } }],
          },
        ],
        BARE,
      );
      expect(second.status, second.text).toBe(200);
      return [firstUpstream, lastUpstream()];
    },
  };

  for (const client of CLIENTS) {
    for (const stream of [false, true]) {
      it(`${client} (${stream ? "stream" : "non-stream"}): reasoning encrypted_content reaches the second turn unchanged`, async () => {
        const [first, second] = await THINK_LOOPS[client](stream);
        await expectReasoningCarried(first, second);
      });
    }
  }

  // The simulator counts ceil(chars / 4) tokens; OpenAI caches prefixes from 1024 tokens in steps
  // of 128: a 5000-character prompt reads 1152 tokens from the cache the second time.
  it("bills the reply's usage: cached input and reasoning tokens, stream and not", async () => {
    for (const stream of [false, true]) {
      const body = {
        model: MODEL,
        messages: [
          { role: "system", content: `${stream ? "s" : "n"}${"x".repeat(4999)}` },
          { role: "user", content: "count me" },
        ],
        reasoning_effort: "high",
        ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
      };
      await postJson(`${stack.gateway.url}/v1/chat/completions`, body);
      const res = await postJson(`${stack.gateway.url}/v1/chat/completions`, body);
      expect(res.status, res.text).toBe(200);
      const usage = stream
        ? parseSse(res.text)
            .filter((f) => f.data !== "[DONE]")
            .map((f) => JSON.parse(f.data))
            .find((c) => c.usage)?.usage
        : res.json.data.usage;
      // "thinking about: count me" is 24 characters: 6 reasoning tokens.
      expect(usage.prompt_tokens_details.cached_tokens, `stream ${stream}`).toBe(1152);
      expect(usage.completion_tokens_details.reasoning_tokens).toBe(6);
      const requestId = res.headers.get("x-request-id");
      const rows = (await usageRows(stack)).filter((row) => row.requestId === requestId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        model: MODEL,
        channel: "or",
        stream,
        status: 200,
        promptTokens: usage.prompt_tokens,
        completionTokens: usage.completion_tokens,
        cachedTokens: 1152,
        thinkingTokens: 6,
      });
      expect(rows[0]!.estimated ?? false).toBe(false);
      expect(rows[0]!.credits).toBeGreaterThan(0);
    }
  });

  it("a responses client's own fields reach the Responses API unwarned; unknown state is a 404", async () => {
    const fields = {
      truncation: "auto",
      metadata: { a: "b" },
      user: "u1",
      parallel_tool_calls: false,
    };
    const res = await postJson(
      `${stack.gateway.url}/v1/responses`,
      { model: MODEL, input: "hi", ...fields },
      BARE,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("x-interlingua-warnings")).toBeNull();
    expect(lastUpstream()).toMatchObject(fields);
    const before = upstream().length;
    const stateful = await postJson(
      `${stack.gateway.url}/v1/responses`,
      { model: MODEL, input: "hi", previous_response_id: "resp_1" },
      BARE,
    );
    expect(stateful.status).toBe(404);
    expect(stateful.text).toContain("resp_1");
    expect(upstream()).toHaveLength(before);
  });

  it("a messages client's thinking asks for the reasoning summary it would have seen from Claude", async () => {
    for (const stream of [false, true]) {
      const res = await call("messages", { model: MODEL, text: "ponder", stream, thinking: true });
      expect(res.status, res.text).toBe(200);
      expect(lastUpstream().reasoning).toEqual({ effort: "low", summary: "auto" });
      const reading = stream
        ? READ_STREAM.messages(parseSse(res.text))
        : READ_BODY.messages(res.json);
      expect(reading.thinking, `stream ${stream}`).toBe("thinking about: ponder");
      expect(reading.text).toBe("echo: ponder");
    }
  });

  it("an output limit reached upstream (status incomplete) is the client's length stop", async () => {
    for (const stream of [false, true]) {
      const res = await postJson(`${stack.gateway.url}/v1/chat/completions`, {
        model: MODEL,
        messages: [{ role: "user", content: "[[len:50]] go on" }],
        max_completion_tokens: 3,
        ...(stream ? { stream: true } : {}),
      });
      expect(res.status, res.text).toBe(200);
      expect(lastUpstream().max_output_tokens).toBe(3);
      const finish = stream
        ? parseSse(res.text)
            .filter((f) => f.data !== "[DONE]")
            .map((f) => JSON.parse(f.data).choices?.[0]?.finish_reason)
            .find((reason) => reason != null)
        : res.json.data.choices[0].finish_reason;
      expect(finish, `stream ${stream}`).toBe("length");
    }
  });

  it("a cache boundary becomes OpenAI's prompt_cache_key in the Responses body", async () => {
    const body = (live: string) => ({
      model: MODEL,
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "y".repeat(6000), cache_control: { type: "ephemeral" } }],
        },
        { role: "assistant", content: "Noted." },
        { role: "user", content: live },
      ],
    });
    const first = await postJson(`${stack.gateway.url}/v1/chat/completions`, body("one word"));
    expect(first.status, first.text).toBe(200);
    const sent = lastUpstream();
    expect(sent.prompt_cache_key).toMatch(/^il-[0-9a-f]{32}$/);
    expect(JSON.stringify(sent)).not.toContain("cache_control");
    await postJson(`${stack.gateway.url}/v1/chat/completions`, body("another"));
    expect(lastUpstream().prompt_cache_key).toBe(sent.prompt_cache_key);
  });

  it("an upstream 429 is a 429 in each client's envelope, Retry-After kept", async () => {
    const ask = (client: ClientFormat) =>
      REQUEST[client]({
        model: MODEL,
        text: "[[fault:status=429,retry-after=7]] hi",
        stream: false,
      });
    const chat = await postJson(stack.gateway.url + ask("chat").path, ask("chat").body);
    expect(chat.status).toBe(429);
    expect(chat.json.error).toMatchObject({ code: 429, type: "rate_limit_error" });
    expect(chat.headers.get("retry-after")).toBe("7");
    const messages = await postJson(stack.gateway.url + ask("messages").path, ask("messages").body);
    expect(messages.status).toBe(429);
    // The messages endpoint answers a non-Anthropic model's errors in its service shape.
    expect(messages.json.error).toMatchObject({ type: "service_error" });
    const native = await postJson(stack.gateway.url + ask("native").path, ask("native").body);
    expect(native.status).toBe(429);
    expect(native.json.error.status).toBe("RESOURCE_EXHAUSTED");
    const responses = await postJson(
      stack.gateway.url + ask("responses").path,
      ask("responses").body,
    );
    expect(responses.status).toBe(429);
  });

  it("an upstream 500 is a 502 without the channel key", async () => {
    const { path, body } = REQUEST.chat({
      model: MODEL,
      text: "[[fault:status=500]] hi",
      stream: false,
    });
    const res = await postJson(stack.gateway.url + path, body);
    expect(res.status).toBe(502);
    expect(res.json.error).toMatchObject({ code: 502, type: "bad_gateway" });
    expect(res.text).not.toContain(UPSTREAM_KEY);
  });

  it("reasoning changed on the way back is OpenAI's 400, in the upstream's words", async () => {
    const { path, body } = REQUEST.messages({
      model: MODEL,
      text: "again",
      stream: false,
      thinking: true,
    });
    const res = await postJson(stack.gateway.url + path, {
      ...body,
      messages: [
        { role: "user", content: "first" },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "", signature: "gAAAAAdGFtcGVyZWQ.0000" },
            { type: "text", text: "ok" },
          ],
        },
        { role: "user", content: "again" },
      ],
    });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.message).toContain("could not be verified");
  });

  it("an error event inside the upstream stream ends the client's stream with an error", async () => {
    const messages = await call("messages", {
      model: MODEL,
      text: "[[fault:error-after=3]] [[len:30]] oops",
      stream: true,
    });
    expect(messages.status).toBe(200);
    const frames = parseSse(messages.text);
    expect(frames.at(-1)?.event).toBe("error");
    expect(JSON.parse(frames.at(-1)!.data).error.type).toBe("api_error");
    const chat = await call("chat", {
      model: MODEL,
      text: "[[fault:error-after=3]] [[len:30]] oops",
      stream: true,
    });
    const last = parseSse(chat.text)
      .filter((f) => f.data !== "[DONE]")
      .at(-1)!;
    expect(JSON.parse(last.data).error).toBeDefined();
  });
});
