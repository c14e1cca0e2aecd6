import OpenAI from "openai";
import type {
  Response as ApiResponse,
  ResponseInputItem,
  ResponseStreamEvent,
} from "openai/resources/responses/responses";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, KEY, postJson, type Stack, startStack, UPSTREAM_KEY } from "./stack.ts";
import { type Json, TOOL } from "./wire.ts";

// The official `openai` SDK against /v1/responses with bare bodies: the gateway speaks OpenAI's
// real Responses API (output[] items, its event stream), to every upstream protocol the stack has.

const BARE = { "x-interlingua-envelope": "bare" };

/** One model per upstream protocol; `thinks` says how its reasoning comes back. */
const UPSTREAMS = [
  // OpenAI chat: DeepSeek-style visible reasoning_content (no signature to carry).
  { protocol: "openai chat", model: "txtD-r1-250528", path: /\/v1\/chat\/completions$/ },
  // Anthropic: a signed thinking block, carried as the reasoning item's encrypted_content.
  { protocol: "anthropic", model: "txtB-sonnet-4-6", path: /\/v1\/messages$/ },
  // Gemini: a thoughtSignature on the function call, carried in a marked reasoning item.
  { protocol: "gemini", model: "txtC-2.5-pro", path: /:(stream)?[gG]enerateContent/ },
  // OpenAI's Responses API itself: reasoning items with encrypted_content, end to end.
  { protocol: "openai-responses", model: "txtA-5.2-pro", path: /\/v1\/responses$/ },
] as const;

const WEATHER_TOOL = {
  type: "function" as const,
  name: TOOL.name,
  description: TOOL.description,
  parameters: TOOL.parameters,
  // LangChain's bindTools sends strict: null; OpenAI accepts it, and so must the gateway.
  strict: null,
};

describe("the openai SDK's Responses API through the gateway", () => {
  let stack: Stack;
  let client: OpenAI;
  beforeAll(async () => {
    stack = await startStack({
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
    client = new OpenAI({
      apiKey: KEY,
      baseURL: `${stack.gateway.url}/v1`,
      defaultHeaders: BARE,
      maxRetries: 0,
      timeout: 10_000,
    });
  });
  afterAll(() => stack.close());

  const upstreamBodies = (path: RegExp): Json[] =>
    stack.sim.requests.filter((r) => path.test(r.path)).map((r) => r.body as Json);

  for (const { protocol, model, path } of UPSTREAMS) {
    describe(`to ${protocol} (${model})`, () => {
      it("responses.create: output[] items, output_text, status and usage", async () => {
        const rsp = await client.responses.create({
          model,
          instructions: "Be brief.",
          input: "hello there",
          max_output_tokens: 500,
        });
        expect(rsp.object).toBe("response");
        expect(rsp.status).toBe("completed");
        expect(rsp.output_text).toContain("echo: hello there");
        const message = rsp.output.find((item) => item.type === "message");
        expect(message?.type === "message" && message.content[0]?.type).toBe("output_text");
        expect(rsp.usage?.input_tokens).toBeGreaterThan(0);
        expect(rsp.usage?.output_tokens).toBeGreaterThan(0);
        expect(rsp.usage?.total_tokens).toBe(
          (rsp.usage?.input_tokens ?? 0) + (rsp.usage?.output_tokens ?? 0),
        );
        expect(rsp.usage?.input_tokens_details.cached_tokens).toBeGreaterThanOrEqual(0);
        expect(rsp.usage?.output_tokens_details.reasoning_tokens).toBeGreaterThanOrEqual(0);
        // The instructions reached the upstream as its system prompt.
        expect(JSON.stringify(upstreamBodies(path).at(-1))).toContain("Be brief.");
      });

      it("responses.stream: the real event sequence, and finalResponse()", async () => {
        const stream = client.responses.stream({ model, input: "stream me" });
        const events: ResponseStreamEvent[] = [];
        let text = "";
        for await (const event of stream) {
          events.push(event);
          if (event.type === "response.output_text.delta") text += event.delta;
        }
        const final = await stream.finalResponse();
        const types = events.map((e) => e.type);
        expect(types.slice(0, 2)).toEqual(["response.created", "response.in_progress"]);
        expect(types.at(-1)).toBe("response.completed");
        for (const type of [
          "response.output_item.added",
          "response.content_part.added",
          "response.output_text.delta",
          "response.output_text.done",
          "response.output_item.done",
        ] as const) {
          expect(types).toContain(type);
        }
        expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
        expect(text).toContain("echo: stream me");
        expect(final.output_text).toBe(text);
        expect(final.usage?.output_tokens).toBeGreaterThan(0);
      });

      for (const streamed of [false, true]) {
        it(`a tool loop with reasoning carried across turns (${streamed ? "stream" : "non-stream"})`, async () => {
          const first = {
            model,
            input: [{ role: "user" as const, content: "weather in Paris? [[tool]]" }],
            tools: [WEATHER_TOOL],
            reasoning: { effort: "high" as const, summary: "auto" as const },
            include: ["reasoning.encrypted_content" as const],
            store: false,
          };
          const rsp: ApiResponse = streamed
            ? await client.responses.stream(first).finalResponse()
            : await client.responses.create(first);
          const call = rsp.output.find((item) => item.type === "function_call");
          if (call?.type !== "function_call") throw new Error("no function_call item");
          expect(call.name).toBe("get_weather");
          expect(JSON.parse(call.arguments)).toHaveProperty("city");
          const reasoning = rsp.output.filter((item) => item.type === "reasoning");
          expect(reasoning.length).toBeGreaterThan(0);
          const carried = reasoning.flatMap((item) =>
            item.type === "reasoning" && item.encrypted_content ? [item.encrypted_content] : [],
          );
          if (protocol !== "openai chat") expect(carried.length).toBeGreaterThan(0);

          // The agent loop: replay every output item as received, then the call's output.
          const replay = JSON.parse(JSON.stringify(rsp.output)) as ResponseInputItem[];
          const second = await client.responses.create({
            ...first,
            input: [
              ...first.input,
              ...replay,
              { type: "function_call_output", call_id: call.call_id, output: '{"temp":21}' },
            ],
          });
          expect(second.status).toBe("completed");
          expect(second.output_text).toContain("echo:");
          expect(second.output_text).toContain("21");
          // The upstream got its opaque reasoning back byte for byte.
          const upstream = JSON.stringify(upstreamBodies(path).at(-1));
          expect(upstream).toContain("temp");
          if (protocol === "anthropic") {
            const signature = carried[0] as string;
            const body = upstreamBodies(path).at(-1) as Json;
            const thinking = (body.messages as Json[])
              .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
              .find((block: Json) => block.type === "thinking");
            expect(thinking?.signature).toBe(signature);
          }
          if (protocol === "openai-responses") {
            const body = upstreamBodies(path).at(-1) as Json;
            const items = (body.input as Json[]).filter((item) => item.type === "reasoning");
            expect(items.map((item) => item.encrypted_content)).toEqual(carried);
          }
          if (protocol === "gemini") {
            const body = upstreamBodies(path).at(-1) as Json;
            const signed = (body.contents as Json[])
              .flatMap((c) => c.parts as Json[])
              .find((part) => part.functionCall !== undefined);
            expect(signed?.thoughtSignature).toMatch(/.+/);
            expect(carried.some((c) => c.includes(signed?.thoughtSignature))).toBe(true);
          }
        });
      }
    });
  }

  it("reasoning tokens of an OpenAI reasoning model reach output_tokens_details", async () => {
    const rsp = await client.responses.create({
      model: "txtA-5",
      input: "think about it",
      reasoning: { effort: "high" },
    });
    expect(rsp.usage?.output_tokens_details.reasoning_tokens).toBeGreaterThan(0);
  });

  it("a flat function tool without description is accepted (as OpenAI does)", async () => {
    const rsp = await client.responses.create({
      model: "txtA-5",
      input: "weather? [[tool]]",
      tools: [{ type: "function", name: "get_weather", parameters: TOOL.parameters, strict: null }],
    });
    expect(rsp.output.some((item) => item.type === "function_call")).toBe(true);
  });

  // Conversations (OpenAI's server-side conversation objects) are not kept by the gateway;
  // previous_response_id and background are (stored-responses.test.ts).
  for (const model of ["txtA-5", "txtA-5.2-pro"]) {
    it(`conversation (server-side state the gateway does not keep) is a 400 naming it (${model})`, async () => {
      const error = await client.responses
        .create({ model, input: "hi", conversation: "conv_123" })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toContain(
        "conversation",
      );
    });
    it(`an unknown previous_response_id is a 404 naming it (${model})`, async () => {
      const error = await client.responses
        .create({ model, input: "hi", previous_response_id: "resp_123" })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect((error as InstanceType<typeof OpenAI.NotFoundError>).message).toContain("resp_123");
    });
  }

  // OpenAI's Response ids are `resp_…` whether kept or not; an upstream's own id (Anthropic's
  // `msg_…`, `chatcmpl-…`, Gemini's response id) is not one, stored or not.
  for (const model of ["txtA-5", ...UPSTREAMS.map((u) => u.model)]) {
    it(`store: false answers with a resp_ id, stream and not (${model})`, async () => {
      const data = await client.responses.create({ model, input: "hi", store: false });
      expect(data.id).toMatch(/^resp_/);
      const stream = await client.responses.create({
        model,
        input: "hi",
        store: false,
        stream: true,
      });
      const ids = new Set<string>();
      for await (const event of stream) {
        if ("response" in event) ids.add(event.response.id);
      }
      expect([...ids]).toHaveLength(1);
      expect([...ids][0]).toMatch(/^resp_/);
    });
  }

  it("store: true is honoured and said in the answer, not warned", async () => {
    const { data, response } = await client.responses
      .create({ model: "txtA-5", input: "hi", store: true })
      .withResponse();
    // In OpenAI's Response object, though the SDK's type leaves it out.
    expect((data as { store?: unknown }).store).toBe(true);
    expect(response.headers.get("x-interlingua-warnings") ?? "").not.toContain("store=");
    expect((await client.responses.retrieve(data.id)).output_text).toBe(data.output_text);
  });

  it("without the bare header /v1/responses keeps the spec's shape", async () => {
    const res = await postJson(`${stack.gateway.url}/v1/responses`, {
      model: "txtA-5",
      input: "spec shape",
    });
    expect(res.json.code).toBe(200);
    expect(res.json.data.choices[0].message.content).toContain("echo: spec shape");
    expect(res.json.data.output).toBeUndefined();
    const bare = await postJson(
      `${stack.gateway.url}/v1/responses`,
      { model: "txtA-5", input: "bare shape" },
      { ...auth(), ...BARE },
    );
    expect(bare.json.output_text).toContain("echo: bare shape");
    expect(bare.json.choices).toBeUndefined();
  });
});
