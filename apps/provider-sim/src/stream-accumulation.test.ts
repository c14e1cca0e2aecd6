import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createProviderSimApp } from "./app.ts";
import { sseJson } from "./testing/http.ts";

// Law: a stream, accumulated, equals the whole response to the same request. Checked in-process
// (app.fetch) over random prompts and directives, for the three protocols.

const app = createProviderSimApp({ record: false, now: () => 0 });
const TOOLS_SCHEMA = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };

const prompt = fc
  .tuple(
    fc.string({ maxLength: 60 }),
    fc.constantFrom("", " [[think]]", " [[len:9]]", " [[tools:2]]", " [[max]]"),
  )
  .map(([text, directive]) => text.replaceAll("[", "(") + directive);

async function call(path: string, headers: Record<string, string>, body: unknown): Promise<string> {
  const response = await app.fetch(
    new Request(`http://sim${path}`, { method: "POST", headers, body: JSON.stringify(body) }),
  );
  return response.text();
}

// biome-ignore lint/suspicious/noExplicitAny: the test walks three protocols' wire JSON freely
type Json = Record<string, any>;

describe("stream accumulation equals the whole response", () => {
  it("OpenAI chat completions", async () => {
    const headers = { authorization: "Bearer k" };
    const tools = [
      { type: "function", function: { name: "a", parameters: TOOLS_SCHEMA } },
      { type: "function", function: { name: "b" } },
    ];
    await fc.assert(
      fc.asyncProperty(
        prompt,
        fc.constantFrom("gpt-4.1", "deepseek-reasoner"),
        async (text, model) => {
          const body = { model, n: 2, tools, messages: [{ role: "user", content: text }] };
          const whole: Json = JSON.parse(await call("/v1/chat/completions", headers, body));
          const chunks = sseJson(
            await call("/v1/chat/completions", headers, {
              ...body,
              stream: true,
              stream_options: { include_usage: true },
            }),
          );
          const acc = whole.choices.map(() => ({
            content: "",
            reasoning: "",
            calls: [] as { name: string; arguments: string }[],
            finish: "",
          }));
          for (const chunk of chunks) {
            for (const { index, delta, finish_reason } of chunk.choices as Json[]) {
              const choice = acc[index]!;
              choice.content += delta.content ?? "";
              choice.reasoning += delta.reasoning_content ?? "";
              for (const call of delta.tool_calls ?? []) {
                choice.calls[call.index] ??= { name: "", arguments: "" };
                choice.calls[call.index]!.name += call.function.name ?? "";
                choice.calls[call.index]!.arguments += call.function.arguments;
              }
              if (finish_reason) choice.finish = finish_reason;
            }
          }
          whole.choices.forEach((choice: Json, i: number) => {
            expect(acc[i]!.content).toBe(choice.message.content ?? "");
            expect(acc[i]!.reasoning).toBe(choice.message.reasoning_content ?? "");
            expect(acc[i]!.calls).toEqual(
              (choice.message.tool_calls ?? []).map((c: Json) => c.function),
            );
            expect(acc[i]!.finish).toBe(choice.finish_reason);
          });
          expect(chunks.at(-1)!.usage).toEqual(whole.usage);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("Anthropic messages", async () => {
    const headers = { "x-api-key": "k", "anthropic-version": "2023-06-01" };
    const tools = [
      { name: "a", input_schema: TOOLS_SCHEMA },
      { name: "b", input_schema: { type: "object" } },
    ];
    await fc.assert(
      fc.asyncProperty(prompt, fc.boolean(), async (text, thinking) => {
        const body = {
          model: "m",
          max_tokens: 50,
          tools,
          messages: [{ role: "user", content: text }],
          ...(thinking ? { thinking: { type: "enabled", budget_tokens: 10 } } : {}),
        };
        const whole: Json = JSON.parse(await call("/v1/messages", headers, body));
        const events = sseJson(
          await call("/v1/messages", headers, { ...body, stream: true }),
        ) as Json[];
        const blocks: Json[] = [];
        const json: string[] = [];
        for (const event of events) {
          if (event.type === "content_block_start")
            blocks[event.index] = { ...event.content_block };
          if (event.type !== "content_block_delta") continue;
          const block = blocks[event.index]!;
          const delta = event.delta as Json;
          if (delta.type === "text_delta") block.text += delta.text;
          if (delta.type === "thinking_delta") block.thinking += delta.thinking;
          if (delta.type === "signature_delta") block.signature = delta.signature;
          if (delta.type === "input_json_delta")
            json[event.index] = (json[event.index] ?? "") + delta.partial_json;
        }
        json.forEach((text, i) => {
          blocks[i]!.input = text ? JSON.parse(text) : {};
        });
        // Ids derive from the request body, which differs by `stream: true`.
        const withoutIds = (list: Json[]) => list.map(({ id: _, ...block }) => block);
        expect(withoutIds(blocks)).toEqual(withoutIds(whole.content));
        const delta = events.find((e) => e.type === "message_delta")!;
        expect(delta.delta.stop_reason).toBe(whole.stop_reason);
        expect(delta.usage.output_tokens).toBe(whole.usage.output_tokens);
      }),
      { numRuns: 40 },
    );
  });

  it("Gemini generateContent", async () => {
    const headers = { "x-goog-api-key": "k" };
    const tools = [
      { functionDeclarations: [{ name: "a", parameters: TOOLS_SCHEMA }, { name: "b" }] },
    ];
    await fc.assert(
      fc.asyncProperty(
        prompt,
        fc.constantFrom(undefined, { includeThoughts: true }, { thinkingBudget: 64 }),
        async (text, thinkingConfig) => {
          const body = {
            contents: [{ role: "user", parts: [{ text }] }],
            tools,
            generationConfig: { candidateCount: 2, ...(thinkingConfig ? { thinkingConfig } : {}) },
          };
          const whole: Json = JSON.parse(
            await call("/v1beta/models/m:generateContent", headers, body),
          );
          const chunks = sseJson(
            await call("/v1beta/models/m:streamGenerateContent?alt=sse", headers, body),
          );
          whole.candidates.forEach((candidate: Json, index: number) => {
            const parts = chunks.flatMap((c) =>
              (c.candidates as Json[])
                .filter((x) => x.index === index)
                .flatMap((x) => x.content.parts),
            );
            const joined = (thought: boolean) =>
              parts
                .filter((p) => Boolean(p.thought) === thought && "text" in p)
                .map((p) => p.text)
                .join("");
            const wholeParts: Json[] = candidate.content.parts;
            const wholeText = (thought: boolean) =>
              wholeParts
                .filter((p) => Boolean(p.thought) === thought && "text" in p)
                .map((p) => p.text)
                .join("");
            expect(joined(true)).toBe(wholeText(true));
            expect(joined(false)).toBe(wholeText(false));
            expect(parts.filter((p) => p.functionCall)).toEqual(
              wholeParts.filter((p) => p.functionCall),
            );
            expect(parts.filter((p) => p.thoughtSignature).map((p) => p.thoughtSignature)).toEqual(
              wholeParts.filter((p) => p.thoughtSignature).map((p) => p.thoughtSignature),
            );
          });
          expect(chunks.at(-1)!.usageMetadata).toEqual(whole.usageMetadata);
        },
      ),
      { numRuns: 40 },
    );
  });
});
