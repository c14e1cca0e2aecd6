// The OpenAI Agents SDK through the gateway: an agent with a function tool, on the SDK's default
// model API (Responses), with reasoning asked for. Run by run-clients.ts with BASE, KEY, MODEL.
import { Agent, run, setDefaultOpenAIClient, setTracingDisabled, tool } from "@openai/agents";
import OpenAI from "openai";
import { z } from "zod";
import { report } from "./expect-echo.ts";

const { BASE = "", KEY = "", MODEL = "" } = process.env;
setTracingDisabled(true);
setDefaultOpenAIClient(
  new OpenAI({
    baseURL: `${BASE}/v1`,
    apiKey: KEY,
    defaultHeaders: { "x-interlingua-envelope": "bare" },
  }),
);

const weather = tool({
  name: "get_weather",
  description: "Weather of a city",
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => JSON.stringify({ city, temp: 21 }),
});
const agent = new Agent({
  name: "Weather",
  instructions: "Answer with the weather.",
  model: MODEL,
  modelSettings: { reasoning: { effort: "high", summary: "auto" } },
  tools: [weather],
});
const result = await run(agent, "Look at the notes file. [[think]] [[tool:get_weather]]");
report("agents", String(result.finalOutput));
