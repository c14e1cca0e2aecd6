// The Vercel AI SDK through the gateway, each provider on its default path (OpenAI's is the
// Responses API), a tool loop with `stopWhen`, reasoning asked for, JSON and stream. Run by
// run-clients.ts with BASE (the gateway, through the recording proxy), KEY and MODEL; prints each
// provider's final answer, which must hold the simulator's "echo:" of the tool result.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import {
  generateObject,
  generateText,
  type LanguageModel,
  stepCountIs,
  streamText,
  tool,
} from "ai";
import { z } from "zod";
import { report, reportObject } from "./expect-echo.ts";

const { BASE = "", KEY = "", MODEL = "" } = process.env;
const headers = { "x-interlingua-envelope": "bare" };
const prompt = "Look at the notes file. [[think]] [[tool:get_weather]]";
const tools = {
  get_weather: tool({
    description: "Weather of a city",
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, temp: 21 }),
  }),
};

type ProviderOptions = NonNullable<Parameters<typeof generateText>[0]["providerOptions"]>;
const providers: [string, LanguageModel, ProviderOptions][] = [
  [
    "openai",
    createOpenAI({ baseURL: `${BASE}/v1`, apiKey: KEY, headers })(MODEL),
    { openai: { reasoningEffort: "high", reasoningSummary: "auto", forceReasoning: true } },
  ],
  [
    "anthropic",
    createAnthropic({ baseURL: `${BASE}/v1`, apiKey: KEY, headers })(MODEL),
    { anthropic: { thinking: { type: "enabled", budgetTokens: 1024 } } },
  ],
  [
    "google",
    createGoogleGenerativeAI({ baseURL: `${BASE}/v1beta`, apiKey: KEY, headers })(MODEL),
    { google: { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } } },
  ],
];

for (const [name, model, providerOptions] of providers) {
  const json = await generateText({
    model,
    tools,
    prompt,
    providerOptions,
    stopWhen: stepCountIs(4),
  });
  report(`${name} generateText (${json.steps.length} steps)`, json.text);
  const stream = streamText({ model, tools, prompt, providerOptions, stopWhen: stepCountIs(4) });
  report(`${name} streamText (${(await stream.steps).length} steps)`, await stream.text);
  // Structured output: each provider's own way of asking for a JSON schema.
  const structured = await generateObject({
    model,
    schema: z.object({ city: z.string(), temp: z.number() }),
    prompt: "Weather in Paris as JSON.",
  });
  reportObject(`${name} generateObject`, structured.object);
}
