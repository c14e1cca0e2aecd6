import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs, streamText, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { KEY, type Stack, startStack, UPSTREAM_KEY } from "./stack.ts";
import type { Json } from "./wire.ts";

// Issue 25: the Vercel AI SDK's default OpenAI provider speaks the Responses API with
// `store: true`; on a tool loop's next step it refers to the items it received by id
// (`item_reference`: reasoning and messages). Through the gateway that works on every upstream,
// the reasoning reaching the upstream that made it.

const UPSTREAMS = [
  { protocol: "openai chat", model: "txtD-r1-250528", path: /\/v1\/chat\/completions$/ },
  { protocol: "anthropic", model: "txtB-sonnet-4-6", path: /\/v1\/messages$/ },
  { protocol: "gemini", model: "txtC-2.5-pro", path: /:(stream)?[gG]enerateContent/ },
  { protocol: "openai-responses", model: "txtA-5.2-pro", path: /\/v1\/responses$/ },
] as const;

describe("the AI SDK's default OpenAI provider through the gateway", () => {
  let stack: Stack;
  /** Every body the AI SDK sent the gateway, in order. */
  const sent: Json[] = [];
  let provider: ReturnType<typeof createOpenAI>;
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
    provider = createOpenAI({
      apiKey: KEY,
      baseURL: `${stack.gateway.url}/v1`,
      headers: { "x-interlingua-envelope": "bare" },
      fetch: async (input, init) => {
        if (typeof init?.body === "string") sent.push(JSON.parse(init.body) as Json);
        return fetch(input, init);
      },
    });
  });
  afterAll(() => stack.close());

  const weather = tool({
    description: "Weather of a city",
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, temp: 21 }),
  });
  // The model ids are the gateway's: the SDK is told they reason.
  const reasoning = {
    openai: { forceReasoning: true, reasoningEffort: "high", reasoningSummary: "auto" },
  } as const;
  const upstreamBodies = (path: RegExp): Json[] =>
    stack.sim.requests.filter((r) => path.test(r.path)).map((r) => r.body as Json);

  for (const { protocol, model, path } of UPSTREAMS) {
    for (const streamed of [false, true]) {
      it(`a tool loop with reasoning and store on, by item_reference (${protocol}, ${streamed ? "streamText" : "generateText"})`, async () => {
        const from = sent.length;
        const options = {
          model: provider(model),
          tools: { get_weather: weather },
          stopWhen: stepCountIs(3),
          prompt: "weather in Paris? [[tool]]",
          providerOptions: reasoning,
        };
        let steps: { toolCalls: unknown[] }[];
        let text: string;
        if (streamed) {
          const result = streamText(options);
          text = await result.text;
          steps = await result.steps;
        } else {
          const result = await generateText(options);
          text = result.text;
          steps = result.steps;
        }
        expect(steps.length).toBe(2);
        expect(steps[0]?.toolCalls).toHaveLength(1);
        expect(text).toContain("21");

        const bodies = sent.slice(from);
        expect(bodies).toHaveLength(2);
        expect(bodies[0]?.store ?? true).toBe(true);
        // Step 2 names the items of step 1 it keeps by id, as the SDK does with store on.
        const references = ((bodies[1]?.input ?? []) as Json[]).filter(
          (item) => item.type === "item_reference",
        );
        expect(references.length).toBeGreaterThan(0);
        // The upstream got them back: the call, its output, and the reasoning it signed.
        const upstream = upstreamBodies(path).at(-1) as Json;
        const text2 = JSON.stringify(upstream);
        expect(text2).toContain("weather in Paris?");
        expect(text2).toContain("get_weather");
        expect(text2).toContain("21");
        if (protocol === "anthropic") {
          const blocks = (upstream.messages as Json[]).flatMap((m) =>
            Array.isArray(m.content) ? m.content : [],
          );
          expect(blocks.find((b: Json) => b.type === "thinking")?.signature).toMatch(/.+/);
        }
        if (protocol === "gemini") {
          const parts = (upstream.contents as Json[]).flatMap((c) => c.parts as Json[]);
          expect(parts.find((p) => p.functionCall !== undefined)?.thoughtSignature).toMatch(/.+/);
        }
        if (protocol === "openai-responses") {
          const items = (upstream.input as Json[]).filter((item) => item.type === "reasoning");
          expect(items.length).toBeGreaterThan(0);
          expect(items[0]?.encrypted_content).toMatch(/.+/);
        }
      });
    }
  }
});
