import { createOpenAI } from "@ai-sdk/openai";
import { generateText, type ModelMessage, streamText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEY, responsesChannel, type Stack, startStack } from "./stack.ts";

// A chat UI's stop button: the AI SDK's default OpenAI provider (Responses, `store: true`) is
// aborted mid-stream, and the user's next message goes at once with the partial assistant turn,
// whose reasoning the SDK names by id (`item_reference`). The stream's stored response is written
// when the gateway has seen the client leave, which can be after that next request arrives: the
// reference was a 404 (`Item with id 'rs_…' not found`). It now waits for the response, as
// `previous_response_id` does.

const UPSTREAMS = ["txtB-sonnet-4-6", "txtC-2.5-pro", "txtA-5.2-codex"];

describe("the AI SDK aborted mid-stream continues at once", () => {
  let stack: Stack;
  let provider: ReturnType<typeof createOpenAI>;
  beforeAll(async () => {
    // The gateway's default drain (reading an abandoned upstream on, for its usage), not the
    // test stack's longer one: the stored response is written when it ends.
    stack = await startStack(
      { extraChannels: responsesChannel("txtA-5.2-codex") },
      { drain: { maxMs: 500, maxBytes: 1024 * 1024 } },
    );
    provider = createOpenAI({
      apiKey: KEY,
      baseURL: `${stack.gateway.url}/v1`,
      headers: { "x-interlingua-envelope": "bare" },
    });
  });
  afterAll(() => stack.close());

  const providerOptions = {
    openai: { reasoningEffort: "high", reasoningSummary: "auto", forceReasoning: true },
  } as const;

  for (const model of UPSTREAMS) {
    it(`on ${model}`, async () => {
      const abort = new AbortController();
      const stream = streamText({
        model: provider(model),
        prompt: "Tell me [[len:300]] [[think]] [[fault:chunk-delay=20]]",
        providerOptions,
        abortSignal: abort.signal,
        onError: () => {},
      });
      let reasoning = "";
      let reasoningMeta: Record<string, Record<string, unknown>> | undefined;
      let text = "";
      let deltas = 0;
      try {
        for await (const part of stream.fullStream) {
          if (part.type === "reasoning-start") reasoningMeta = part.providerMetadata as never;
          if (part.type === "reasoning-delta") reasoning += part.text;
          if (part.type === "text-delta") {
            text += part.text;
            if (++deltas === 3) abort.abort();
          }
        }
      } catch {
        // The abort.
      }
      expect(reasoningMeta?.["openai"]?.["itemId"]).toMatch(/^rs_/);
      const messages: ModelMessage[] = [
        { role: "user", content: "Tell me" },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: reasoning, providerOptions: reasoningMeta as never },
            { type: "text", text },
          ],
        },
        { role: "user", content: "continue" },
      ];
      const next = await generateText({ model: provider(model), providerOptions, messages });
      expect(next.text).toBe("echo: continue");
    });
  }
});
