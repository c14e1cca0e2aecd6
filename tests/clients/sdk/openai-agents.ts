// The OpenAI Agents SDK through the gateway: an agent with a function tool, on the SDK's default
// model API (Responses), with reasoning asked for. Run by run-clients.ts with BASE, KEY, MODEL.
import { Agent, run, setDefaultOpenAIClient, setTracingDisabled, tool } from "@openai/agents";
import OpenAI from "openai";
import { z } from "zod";
import { report, reportObject } from "./expect-echo.ts";

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

// A handoff: the triage agent transfers to the weather agent, which answers.
const triage = new Agent({
  name: "Triage",
  instructions: "Hand weather questions to the weather agent.",
  model: MODEL,
  // Reasoning on both sides: the weather agent continues a turn that carries the triage's own.
  modelSettings: { reasoning: { effort: "high", summary: "auto" } },
  handoffs: [agent],
});
const handed = await run(triage, "Weather please. [[tool:transfer_to_Weather]]");
report(`agents handoff (to ${handed.lastAgent?.name})`, String(handed.finalOutput));
if (handed.lastAgent?.name !== "Weather") process.exitCode = 1;

// outputType: the final answer as a schema's object.
const structured = new Agent({
  name: "Structured",
  instructions: "Answer as JSON.",
  model: MODEL,
  outputType: z.object({ city: z.string(), temp: z.number() }),
});
reportObject("agents outputType", (await run(structured, "Weather in Paris.")).finalOutput);
