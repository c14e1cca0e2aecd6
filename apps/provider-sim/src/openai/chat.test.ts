import { describe, expect, it } from "vitest";
import { alnumId, hexId } from "../core/hash.ts";
import { FIXED_CREATED, post, readAll, sseEvents, sseJson, useSim } from "../testing/http.ts";

const sim = useSim();
const keyed = useSim({ keys: ["sk-good"] });
const AUTH = { authorization: "Bearer sk-test" };
const chat = (body: unknown, headers: Record<string, string> = AUTH) =>
  post(`${sim().url}/v1/chat/completions`, body, headers);

const WEATHER = {
  type: "function",
  function: {
    name: "get_weather",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};
const NO_ARGS = {
  type: "function",
  function: { name: "list_alerts", parameters: { type: "object", properties: {} } },
};

const USAGE_ZEROS = {
  prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
  completion_tokens_details: {
    reasoning_tokens: 0,
    audio_tokens: 0,
    accepted_prediction_tokens: 0,
    rejected_prediction_tokens: 0,
  },
};

describe("POST /v1/chat/completions", () => {
  const request = {
    model: "gpt-4.1-mini",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hello there, simulator!" },
    ],
  };

  it("answers a whole completion: echo text, usage from ceil(chars / 4)", async () => {
    const response = await chat(request);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    expect(await response.json()).toEqual({
      id: `chatcmpl-${alnumId(JSON.stringify(request), 29)}`,
      object: "chat.completion",
      created: FIXED_CREATED,
      model: "gpt-4.1-mini",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: "echo: Hello there, simulator!",
            refusal: null,
            annotations: [],
          },
          logprobs: null,
          finish_reason: "stop",
        },
      ],
      // prompt: "Be brief." + "Hello there, simulator!" = 32 chars; reply: 29 chars
      usage: { prompt_tokens: 8, completion_tokens: 8, total_tokens: 16, ...USAGE_ZEROS },
      service_tier: "default",
      system_fingerprint: "fp_provider_sim",
    });
  });

  it("streams chunks, a trailing usage chunk with choices: [], then [DONE]", async () => {
    const body = { ...request, stream: true, stream_options: { include_usage: true } };
    const response = await chat(body);
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const text = await response.text();
    const events = sseEvents(text);
    expect(events.every((e) => e.event === undefined)).toBe(true);
    expect(events.at(-1)?.data).toBe("[DONE]");
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
    const head = {
      id: `chatcmpl-${alnumId(JSON.stringify(body), 29)}`,
      object: "chat.completion.chunk",
      created: FIXED_CREATED,
      model: "gpt-4.1-mini",
      service_tier: "default",
      system_fingerprint: "fp_provider_sim",
    };
    const choice = (delta: unknown, finish: string | null = null) => ({
      ...head,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      usage: null,
    });
    expect(sseJson(text)).toEqual([
      choice({ role: "assistant", content: "", refusal: null }),
      choice({ content: "echo: Hello there," }),
      choice({ content: " simulator!" }),
      choice({}, "stop"),
      {
        ...head,
        choices: [],
        usage: { prompt_tokens: 8, completion_tokens: 8, total_tokens: 16, ...USAGE_ZEROS },
      },
    ]);
  });

  it("sends no usage in a stream without include_usage", async () => {
    const chunks = sseJson(await (await chat({ ...request, stream: true })).text());
    expect(chunks.every((chunk) => !("usage" in chunk))).toBe(true);
  });

  it("calls two tools in parallel, the no-argument one with {}", async () => {
    const body = {
      model: "gpt-4.1-mini",
      messages: [{ role: "user", content: "check [[tools:2]]" }],
      tools: [WEATHER, NO_ARGS],
    };
    const completion = await (await chat(body)).json();
    const seed = JSON.stringify(body);
    expect(completion.choices[0]).toEqual({
      index: 0,
      message: {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: `call_${hexId(`${seed}:0:0`)}`,
            type: "function",
            function: { name: "get_weather", arguments: '{"city":"sample city"}' },
          },
          {
            id: `call_${hexId(`${seed}:0:1`)}`,
            type: "function",
            function: { name: "list_alerts", arguments: "{}" },
          },
        ],
        refusal: null,
        annotations: [],
      },
      logprobs: null,
      finish_reason: "tool_calls",
    });
  });

  it("streams tool-call arguments keyed by index, id and name on the first fragment only", async () => {
    const body = {
      model: "gpt-4.1-mini",
      stream: true,
      messages: [{ role: "user", content: "[[tool:get_weather]] [[tool:list_alerts]]" }],
      tools: [WEATHER, NO_ARGS],
    };
    const chunks = sseJson(await (await chat(body)).text());
    type Call = {
      index: number;
      id?: string;
      type?: string;
      function: { name?: string; arguments: string };
    };
    const calls = chunks.flatMap((chunk) =>
      (chunk.choices as { delta: { tool_calls?: Call[] } }[]).flatMap(
        (c) => c.delta.tool_calls ?? [],
      ),
    );
    const byIndex = new Map<number, Call[]>();
    for (const call of calls) byIndex.set(call.index, [...(byIndex.get(call.index) ?? []), call]);
    const weather = byIndex.get(0)!;
    expect(weather[0]).toMatchObject({
      id: expect.stringMatching(/^call_/),
      type: "function",
      function: { name: "get_weather", arguments: "" },
    });
    expect(weather.length).toBeGreaterThan(2);
    expect(weather.slice(1).every((f) => f.id === undefined && f.function.name === undefined)).toBe(
      true,
    );
    expect(weather.map((f) => f.function.arguments).join("")).toBe('{"city":"sample city"}');
    expect(
      byIndex
        .get(1)!
        .map((f) => f.function.arguments)
        .join(""),
    ).toBe("{}");
    const last = chunks.at(-1) as { choices: { finish_reason: string }[] };
    expect(last.choices[0]!.finish_reason).toBe("tool_calls");
  });

  it("calls the first tool when tool_choice is required, none with tool_choice none", async () => {
    const base = {
      model: "m",
      messages: [{ role: "user", content: "hi [[tool]]" }],
      tools: [WEATHER],
    };
    const required = await (
      await chat({ ...base, messages: [{ role: "user", content: "hi" }], tool_choice: "required" })
    ).json();
    expect(required.choices[0].message.tool_calls[0].function.name).toBe("get_weather");
    const none = await (await chat({ ...base, tool_choice: "none" })).json();
    expect(none.choices[0].message.content).toBe("echo: hi");
  });

  it("answers tool results with text, never another call", async () => {
    const completion = await (
      await chat({
        model: "m",
        tools: [WEATHER],
        messages: [
          { role: "user", content: "[[tool:get_weather]]" },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                id: "call_1",
                type: "function",
                function: { name: "get_weather", arguments: "{}" },
              },
            ],
          },
          { role: "tool", tool_call_id: "call_1", content: "sunny" },
        ],
      })
    ).json();
    expect(completion.choices[0].message.content).toBe("echo: sunny");
    expect(completion.choices[0].finish_reason).toBe("stop");
  });

  it("streams reasoning_content for DeepSeek-style models and counts reasoning tokens", async () => {
    const body = {
      model: "deepseek-reasoner",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "why" }],
    };
    const chunks = sseJson(await (await chat(body)).text());
    const deltas = chunks.flatMap((c) =>
      (
        c.choices as { delta: { reasoning_content?: string | null; content?: string | null } }[]
      ).map((x) => x.delta),
    );
    expect(deltas[0]).toEqual({ role: "assistant", content: null, reasoning_content: "" });
    expect(deltas.map((d) => d.reasoning_content ?? "").join("")).toBe("thinking about: why");
    expect(deltas.map((d) => d.content ?? "").join("")).toBe("echo: why");
    const usage = chunks.at(-1)!.usage as {
      completion_tokens: number;
      completion_tokens_details: { reasoning_tokens: number };
    };
    expect(usage.completion_tokens_details.reasoning_tokens).toBe(5); // "thinking about: why" = 19 chars
    expect(usage.completion_tokens).toBe(5 + 3);

    const whole = await (await chat({ ...body, stream: false })).json();
    expect(whole.choices[0].message.reasoning_content).toBe("thinking about: why");
  });

  it("returns n choices, interleaved in the stream", async () => {
    const body = { model: "m", n: 2, messages: [{ role: "user", content: "one two three four" }] };
    const whole = await (await chat(body)).json();
    expect(whole.choices.map((c: { message: { content: string } }) => c.message.content)).toEqual([
      "echo: one two three four",
      "echo: one two three four (choice 1)",
    ]);
    const chunks = sseJson(await (await chat({ ...body, stream: true })).text());
    const indices = chunks.map((c) => (c.choices as { index: number }[])[0]!.index);
    expect(indices.slice(0, 4)).toEqual([0, 1, 0, 1]);
  });

  it("stops for length at max_tokens, and on [[max]]", async () => {
    const capped = await (
      await chat({
        model: "m",
        max_tokens: 2,
        messages: [{ role: "user", content: "a long question" }],
      })
    ).json();
    expect(capped.choices[0]).toMatchObject({
      message: { content: "echo: a " },
      finish_reason: "length",
    });
    expect(capped.usage.completion_tokens).toBe(2);
    const forced = await (
      await chat({ model: "m", messages: [{ role: "user", content: "x [[max]]" }] })
    ).json();
    expect(forced.choices[0].finish_reason).toBe("length");
  });

  it("writes [[len:N]] words over several chunks", async () => {
    const chunks = sseJson(
      await (
        await chat({
          model: "m",
          stream: true,
          messages: [{ role: "user", content: "[[len:30]]" }],
        })
      ).text(),
    );
    const text = chunks
      .map((c) => (c.choices as { delta: { content?: string } }[])[0]?.delta.content ?? "")
      .join("");
    expect(text.split(" ")).toHaveLength(30);
    expect(chunks.length).toBeGreaterThan(10);
  });

  it("refuses a missing or wrong key with 401 in OpenAI's error shape", async () => {
    const missing = await chat(request, {});
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({
      error: {
        message: expect.stringContaining("didn't provide an API key"),
        type: "invalid_request_error",
        param: null,
        code: null,
      },
    });
    const wrong = await post(`${keyed().url}/v1/chat/completions`, request, {
      authorization: "Bearer sk-bad",
    });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error.code).toBe("invalid_api_key");
    const right = await post(`${keyed().url}/v1/chat/completions`, request, {
      authorization: "Bearer sk-good",
    });
    expect(right.status).toBe(200);
  });

  it("refuses bad requests with 400", async () => {
    expect((await chat({ messages: [] })).status).toBe(400);
    const broken = await chat("{not json");
    expect(broken.status).toBe(400);
    expect((await readAll(broken)).text).toContain("invalid_request_error");
  });
});

describe("[[think]] on OpenAI models", () => {
  it("counts hidden reasoning for OpenAI models, shows it for DeepSeek-style ones", async () => {
    const ask = (model: string) =>
      chat({ model, messages: [{ role: "user", content: "go [[think]]" }] });
    const hidden = await (await ask("gpt-5")).json();
    expect(hidden.choices[0].message.reasoning_content).toBeUndefined();
    expect(hidden.usage.completion_tokens_details.reasoning_tokens).toBe(5); // "thinking about: go"
    const shown = await (await ask("deepseek-r1")).json();
    expect(shown.choices[0].message.reasoning_content).toBe("thinking about: go");
  });
});
