/**
 * Canonical requests and responses built only from content all four formats express, so law 5
 * (F -> canonical -> G -> canonical loses nothing) can be stated exactly for every pair.
 * The restrictions are the intersection of the four loss tables:
 * - text that is not blank (Anthropic never receives blank text), no signatures (chat drops them),
 *   no cache boundaries (responses drops them);
 * - at most one system text (responses merges system texts into one leading item);
 * - user images as base64 JPEG/PNG (the responses format takes data URIs of those types; native
 *   maps URLs to fileData), no detail (messages drops it), no files (responses drops them);
 * - assistant turns of text and function calls; tool results as text (chat drops images), named
 *   after their call (every format implies the name by the call id), never flagged as errors
 *   (chat and responses drop isError); no message names (messages, native, responses drop them);
 * - temperature within 0..1 (messages refuses more), max tokens always set (Anthropic requires
 *   it); no topK, stop, penalties or seed (each dropped by chat, responses or messages);
 * - function tools with a description (the responses format requires one), no strict flag
 *   (native drops it); tool choice (auto, none, required, a named tool) only with tools; no
 *   parallelToolCalls (native drops it);
 * - one choice; no thinking (chat carries no signatures, responses results carry no thinking);
 * - finish stop, length, content-filter, or tool-calls after calls (chat and responses send
 *   error and other as stop);
 * - usage of input and output tokens only (the responses result drops non-zero cached, cache
 *   write and thinking counts).
 * Ids are given on every tool call, so no pair needs Gemini's generated ids.
 */
import type {
  AssistantPart,
  Message,
  Request,
  Response,
  Tool,
  Usage,
} from "@interlingua/core-types";
import { fc } from "@interlingua/core-types/testing";

const word = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .,!?'-]{0,30}[A-Za-z0-9.!?]$/);
const toolName = fc.stringMatching(/^[a-z][a-z0-9_]{1,15}$/);
const callId = fc.stringMatching(/^call_[A-Za-z0-9]{6,12}$/);
const base64Image = fc
  .tuple(fc.constantFrom("image/jpeg", "image/png"), fc.uint8Array({ minLength: 3, maxLength: 24 }))
  .map(([mediaType, bytes]) => ({
    type: "image" as const,
    source: { type: "base64" as const, mediaType, data: btoa(String.fromCharCode(...bytes)) },
  }));
const argumentsJson = fc
  .dictionary(
    fc.stringMatching(/^[a-z]{1,8}$/),
    fc.oneof(fc.string({ maxLength: 8 }), fc.integer()),
    {
      maxKeys: 3,
    },
  )
  .map((o) => JSON.stringify(o));

const tool: fc.Arbitrary<Tool> = fc.record({
  type: fc.constant("function" as const),
  name: toolName,
  description: word,
  parameters: fc.constant({
    type: "object",
    properties: { q: { type: "string" } },
    required: ["q"],
  }),
});

/** A conversation: user turns, assistant turns that may call tools, and the tool turns answering them. */
const turn = fc.record({
  user: fc.array(
    fc.oneof(
      { weight: 4, arbitrary: word.map((text) => ({ type: "text" as const, text })) },
      base64Image,
    ),
    {
      minLength: 1,
      maxLength: 3,
    },
  ),
  reply: word,
  calls: fc.array(fc.tuple(callId, toolName, argumentsJson, word), { maxLength: 2 }),
});

function conversation(
  turns: fc.Arbitrary<Array<typeof turn extends fc.Arbitrary<infer T> ? T : never>>,
) {
  return turns.map((list) => {
    const messages: Message[] = [];
    const seen = new Set<string>();
    list.forEach((t, i) => {
      messages.push({ role: "user", parts: t.user });
      const calls = t.calls.filter(([id]) => !seen.has(id) && seen.add(id));
      const parts: AssistantPart[] = [{ type: "text", text: t.reply }];
      for (const [id, name, args] of calls)
        parts.push({ type: "tool-call", id, name, arguments: args });
      // The last turn ends with the user, so every request asks the model for something.
      if (i === list.length - 1 && calls.length === 0) return;
      messages.push({ role: "assistant", parts });
      if (calls.length > 0) {
        messages.push({
          role: "tool",
          parts: calls.map(([id, name, , result]) => ({
            type: "tool-result" as const,
            toolCallId: id,
            name,
            content: [{ type: "text" as const, text: result }],
          })),
        });
      }
    });
    if (messages.at(-1)?.role !== "user" && messages.at(-1)?.role !== "tool") {
      messages.push({ role: "user", parts: [{ type: "text", text: "continue" }] });
    }
    return messages;
  });
}

export const commonRequest: fc.Arbitrary<Request> = fc
  .record({
    model: fc.constantFrom("txtA-5", "txtB-sonnet-4-6", "txtC-2.5-pro"),
    system: fc.array(
      word.map((text) => ({ type: "text" as const, text })),
      { maxLength: 1 },
    ),
    messages: conversation(fc.array(turn, { minLength: 1, maxLength: 3 })),
    temperature: fc.option(
      fc.integer({ min: 0, max: 100 }).map((n) => n / 100),
      { nil: undefined },
    ),
    topP: fc.option(
      fc.integer({ min: 1, max: 100 }).map((n) => n / 100),
      { nil: undefined },
    ),
    maxTokens: fc.integer({ min: 1, max: 8192 }),
    tools: fc.uniqueArray(tool, {
      maxLength: 2,
      selector: (t) => (t.type === "function" ? t.name : ""),
    }),
    stream: fc.boolean(),
    choice: fc.constantFrom("auto", "none", "required", "tool", undefined),
  })
  .map((r): Request => {
    const sampling: Request["sampling"] = { maxTokens: r.maxTokens };
    if (r.temperature !== undefined) sampling.temperature = r.temperature;
    if (r.topP !== undefined) sampling.topP = r.topP;
    const request: Request = {
      model: r.model,
      system: r.system,
      messages: r.messages,
      sampling,
      tools: r.tools,
      stream: r.stream,
    };
    const first = r.tools[0];
    if (r.choice === "tool" && first?.type === "function") {
      request.toolChoice = { type: "tool", name: first.name };
    } else if (r.choice !== undefined && r.choice !== "tool" && first !== undefined) {
      request.toolChoice = { type: r.choice };
    }
    return request;
  });

const usage: fc.Arbitrary<Usage> = fc
  .record({ input: fc.nat({ max: 100_000 }), output: fc.nat({ max: 100_000 }) })
  .map(({ input, output }) => ({
    inputTokens: input,
    outputTokens: output,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    thinkingTokens: 0,
  }));

export const commonResponse: fc.Arbitrary<Response> = fc
  .record({
    id: fc.stringMatching(/^resp_[A-Za-z0-9]{8}$/),
    model: fc.constantFrom("txtA-5", "txtB-sonnet-4-6", "txtC-2.5-pro"),
    text: word,
    calls: fc.array(fc.tuple(callId, toolName, argumentsJson), { maxLength: 2 }),
    finish: fc.constantFrom("stop" as const, "length" as const, "content-filter" as const),
    usage,
  })
  .map((r): Response => {
    const parts: AssistantPart[] = [{ type: "text", text: r.text }];
    for (const [id, name, args] of r.calls)
      parts.push({ type: "tool-call", id, name, arguments: args });
    return {
      id: r.id,
      model: r.model,
      created: 0,
      message: { role: "assistant", parts },
      finishReason: { unified: r.calls.length > 0 ? "tool-calls" : r.finish },
      usage: r.usage,
    };
  });
