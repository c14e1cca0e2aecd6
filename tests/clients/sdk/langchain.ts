// LangChain through the gateway: `createAgent` with a tool on ChatOpenAI (chat completions) and on
// ChatAnthropic (messages), reasoning asked for. Run by run-clients.ts with BASE, KEY, MODEL.
import { ChatAnthropic } from "@langchain/anthropic";
import { ChatOpenAI } from "@langchain/openai";
import { createAgent, tool } from "langchain";
import { z } from "zod";
import { report, reportObject } from "./expect-echo.ts";

const { BASE = "", KEY = "", MODEL = "" } = process.env;
const headers = { "x-interlingua-envelope": "bare" };
const weather = tool(async ({ city }) => JSON.stringify({ city, temp: 21 }), {
  name: "get_weather",
  description: "Weather of a city",
  schema: z.object({ city: z.string() }),
});
const models = {
  openai: new ChatOpenAI({
    model: MODEL,
    apiKey: KEY,
    reasoning: { effort: "high" },
    configuration: { baseURL: `${BASE}/v1`, defaultHeaders: headers },
  }),
  anthropic: new ChatAnthropic({
    model: MODEL,
    apiKey: KEY,
    anthropicApiUrl: BASE,
    maxTokens: 4096,
    thinking: { type: "enabled", budget_tokens: 1024 },
    clientOptions: { defaultHeaders: headers },
  }),
};
for (const [name, model] of Object.entries(models)) {
  const agent = createAgent({ model, tools: [weather] });
  const state = await agent.invoke({
    messages: [{ role: "user", content: "Look at the notes file. [[think]] [[tool:get_weather]]" }],
  });
  const last = state.messages.at(-1);
  const text = typeof last?.content === "string" ? last.content : JSON.stringify(last?.content);
  report(`langchain ${name}`, text);
}

// Structured output: OpenAI's json_schema, and Anthropic's forced tool (which LangChain uses
// only with thinking off, as its own warning says).
const plain = {
  openai: models.openai,
  anthropic: new ChatAnthropic({
    model: MODEL,
    apiKey: KEY,
    anthropicApiUrl: BASE,
    clientOptions: { defaultHeaders: headers },
  }),
};
for (const [name, model] of Object.entries(plain)) {
  const structured = model.withStructuredOutput(z.object({ city: z.string(), temp: z.number() }));
  reportObject(
    `langchain ${name} withStructuredOutput`,
    await structured.invoke("Weather in Paris."),
  );
}
