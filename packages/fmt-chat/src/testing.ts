/**
 * fast-check arbitraries for the chat-completions WIRE format, written by hand to cover every
 * field the codec reads: requests as clients send them, responses and streams as OpenAI and the
 * compatible upstreams send them. Every generated value passes its zod schema in `chat-api.ts`
 * (a property test proves it). The conformance suite reuses them.
 */
import {
  type AssistantPart,
  type FinishReason,
  type IndexedOutput,
  type LogprobCandidate,
  type Message,
  outputsOf,
  placeholderFileName,
  type Request,
  type Response,
  type SseMessage,
  type TextPart,
  type ThinkingPart,
  type Tool,
  type ToolCallPart,
  type ToolResultPart,
  type UnifiedFinishReason,
  withOutputs,
} from "@interlingua/core-types";
import {
  argumentsJson,
  base64,
  decimal,
  fc,
  httpUrl,
  identifier,
  imageMediaType,
  jsonObject,
  logprobValue,
  nonEmptyText,
  text,
  tokenCount,
} from "@interlingua/core-types/testing";
import type {
  ChatAssistantBlock,
  ChatAssistantMessage,
  ChatCacheControl,
  ChatChoice,
  ChatFileBlock,
  ChatImageBlock,
  ChatMessage,
  ChatRequestWire,
  ChatResponseFormat,
  ChatResponseWire,
  ChatTextBlock,
  ChatTool,
  ChatToolCall,
  ChatToolChoice,
  ChatToolMessage,
  ChatUsage,
  ChatUserBlock,
  ChatUserMessage,
} from "./chat-api.js";
import type { ChatChunk } from "./chat-chunk-api.js";

export { fc };

/**
 * The value as it arrives in a JSON body. fast-check builds some records without a prototype;
 * JSON.parse never does, and strict equality tells them apart.
 */
export function asJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

const orNull = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null, freq: 6 });

export const chatModel = fc.constantFrom(
  "txtA-5",
  "txtA-5-mini",
  "txtD-v3.2",
  "txtB-sonnet-4-6",
  "txtC-2.5-pro",
);

export const chatCacheControl: fc.Arbitrary<ChatCacheControl> = fc.record(
  { type: fc.constant("ephemeral" as const), ttl: fc.constantFrom("5m" as const, "1h" as const) },
  { requiredKeys: ["type"] },
);

export const chatTextBlock: fc.Arbitrary<ChatTextBlock> = fc.record(
  { type: fc.constant("text" as const), text: text(), cache_control: chatCacheControl },
  { requiredKeys: ["type", "text"] },
);

export const chatDataUri = (mediaType: fc.Arbitrary<string>) =>
  fc.tuple(mediaType, base64).map(([type, data]) => `data:${type};base64,${data}`);

export const chatImageBlock: fc.Arbitrary<ChatImageBlock> = fc.record(
  {
    type: fc.constant("image_url" as const),
    image_url: fc.record(
      {
        url: fc.oneof(httpUrl, chatDataUri(imageMediaType)),
        detail: fc.constantFrom("auto" as const, "low" as const, "high" as const),
      },
      { requiredKeys: ["url"] },
    ),
    cache_control: chatCacheControl,
  },
  { requiredKeys: ["type", "image_url"] },
);

const filename = nonEmptyText(20);
export const chatFileBlock: fc.Arbitrary<ChatFileBlock> = fc.record(
  {
    type: fc.constant("file" as const),
    file: fc.oneof(
      fc.record(
        { file_data: chatDataUri(fc.constant("application/pdf")), filename },
        { requiredKeys: ["file_data"] },
      ),
      fc.record(
        { file_id: identifier.map((id) => `file-${id}`), filename },
        { requiredKeys: ["file_id"] },
      ),
    ),
    cache_control: chatCacheControl,
  },
  { requiredKeys: ["type", "file"] },
);

export const chatUserBlock: fc.Arbitrary<ChatUserBlock> = fc.oneof(
  { weight: 3, arbitrary: chatTextBlock },
  { weight: 1, arbitrary: chatImageBlock },
  { weight: 1, arbitrary: chatFileBlock },
);

/** system and developer messages, string or text blocks. */
export const chatSystemMessage: fc.Arbitrary<ChatMessage> = fc.record(
  {
    role: fc.constantFrom("system" as const, "developer" as const),
    content: fc.oneof(text(), fc.array(chatTextBlock, { minLength: 1, maxLength: 3 })),
    name: identifier,
  },
  { requiredKeys: ["role", "content"] },
);

export const chatUserMessage: fc.Arbitrary<ChatUserMessage> = fc.record(
  {
    role: fc.constant("user" as const),
    content: fc.oneof(text(), fc.array(chatUserBlock, { maxLength: 4 })),
    name: identifier,
  },
  { requiredKeys: ["role", "content"] },
);

export const chatToolCall: fc.Arbitrary<ChatToolCall> = fc.record(
  {
    id: identifier.map((id) => `call_${id}`),
    type: fc.constant("function" as const),
    function: fc.record({
      name: identifier,
      // "" is what some upstreams send for a call without arguments.
      arguments: fc.oneof({ weight: 5, arbitrary: argumentsJson }, fc.constant("")),
    }),
  },
  { requiredKeys: ["id", "function"] },
);

const chatAssistantBlock: fc.Arbitrary<ChatAssistantBlock> = fc.oneof(
  { weight: 4, arbitrary: chatTextBlock },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constant("refusal" as const), refusal: text() }),
  },
);

export const chatAssistantMessage: fc.Arbitrary<ChatAssistantMessage> = fc.record(
  {
    role: fc.constant("assistant" as const),
    content: fc.oneof(text(), fc.constant(null), fc.array(chatAssistantBlock, { maxLength: 3 })),
    refusal: orNull(text()),
    name: identifier,
    tool_calls: fc.array(chatToolCall, { maxLength: 3 }),
    reasoning_content: orNull(text()),
  },
  { requiredKeys: ["role"] },
);

export const chatToolMessage: fc.Arbitrary<ChatToolMessage> = fc.record({
  role: fc.constant("tool" as const),
  tool_call_id: identifier.map((id) => `call_${id}`),
  content: fc.oneof(text(), fc.array(chatTextBlock, { maxLength: 3 })),
});

export const chatMessage: fc.Arbitrary<ChatMessage> = fc.oneof(
  { weight: 1, arbitrary: chatSystemMessage },
  { weight: 3, arbitrary: chatUserMessage },
  { weight: 2, arbitrary: chatAssistantMessage },
  { weight: 1, arbitrary: chatToolMessage },
);

const parameters = fc.record({
  type: fc.constant("object"),
  properties: fc.dictionary(
    identifier,
    fc.record({ type: fc.constantFrom("string", "number", "boolean") }),
    { maxKeys: 3 },
  ),
});

export const chatTool: fc.Arbitrary<ChatTool> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant("function" as const),
      function: fc.record(
        { name: identifier, description: text(), parameters, strict: orNull(fc.boolean()) },
        { requiredKeys: ["name"] },
      ),
    }),
  },
  {
    // OpenAI's free-form custom tools: carried as given.
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant("custom"),
      custom: fc.record({ name: identifier, description: text() }, { requiredKeys: ["name"] }),
    }),
  },
);

export const chatToolChoice: fc.Arbitrary<ChatToolChoice> = fc.oneof(
  fc.constantFrom("auto" as const, "none" as const, "required" as const),
  fc.record({ type: fc.constant("function" as const), function: fc.record({ name: identifier }) }),
  fc.record({
    type: fc.constant("allowed_tools" as const),
    allowed_tools: fc.record({
      mode: fc.constantFrom("auto" as const, "required" as const),
      tools: fc.array(
        fc.record({
          type: fc.constant("function" as const),
          function: fc.record({ name: identifier }),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    }),
  }),
);

export const chatResponseFormat: fc.Arbitrary<ChatResponseFormat> = fc.oneof(
  fc.constant({ type: "text" as const }),
  fc.constant({ type: "json_object" as const }),
  fc.record({
    type: fc.constant("json_schema" as const),
    json_schema: fc.record(
      { name: identifier, description: text(), schema: jsonObject, strict: orNull(fc.boolean()) },
      { requiredKeys: ["name"] },
    ),
  }),
);

/** Fields chat clients send that the canonical model does not interpret (they go to extras). */
export const chatUnknownFields = fc.record(
  {
    logit_bias: fc.dictionary(
      fc.integer({ min: 0, max: 100_000 }).map(String),
      fc.integer({ min: -100, max: 100 }),
      {
        maxKeys: 3,
      },
    ),
    store: fc.boolean(),
    service_tier: fc.constantFrom("auto", "default", "flex"),
    prompt_cache_key: identifier,
    safety_identifier: identifier,
  },
  { requiredKeys: [] },
);

const requestBase = fc.record(
  {
    model: chatModel,
    messages: fc.array(chatMessage, { minLength: 1, maxLength: 8 }),
    temperature: orNull(decimal(0, 2)),
    top_p: orNull(decimal(0, 1)),
    frequency_penalty: orNull(decimal(-2, 2)),
    presence_penalty: orNull(decimal(-2, 2)),
    stop: orNull(fc.oneof(nonEmptyText(8), fc.array(nonEmptyText(8), { maxLength: 4 }))),
    n: orNull(fc.integer({ min: 1, max: 4 })),
    max_tokens: orNull(fc.integer({ min: 1, max: 128_000 })),
    max_completion_tokens: orNull(fc.integer({ min: 1, max: 128_000 })),
    seed: orNull(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })),
    user: orNull(identifier),
    tools: orNull(fc.array(chatTool, { maxLength: 3 })),
    tool_choice: orNull(chatToolChoice),
    parallel_tool_calls: orNull(fc.boolean()),
    response_format: orNull(chatResponseFormat),
    stream: orNull(fc.boolean()),
    stream_options: orNull(fc.record({ include_usage: fc.boolean() }, { requiredKeys: [] })),
    reasoning_effort: orNull(fc.constantFrom("none", "minimal", "low", "medium", "high", "xhigh")),
    metadata: orNull(fc.dictionary(identifier, fc.string({ maxLength: 12 }), { maxKeys: 3 })),
    web_search_options: orNull(
      fc.record({ search_context_size: fc.constantFrom("low", "medium", "high") }),
    ),
    logprobs: orNull(fc.boolean()),
    top_logprobs: orNull(fc.integer({ min: 0, max: 20 })),
  },
  { requiredKeys: ["model", "messages"] },
);

/** A chat request body, unknown fields included. */
export const chatRequestWire: fc.Arbitrary<ChatRequestWire> = fc
  .tuple(requestBase, chatUnknownFields)
  .map(([base, unknown]) => asJson({ ...unknown, ...base }));

/** Function names from a small pool, so that calls and results of one name meet. */
const legacyName = fc.constantFrom("get_weather", "lookup", "f");

/** A conversation of the deprecated functions interface (chat-legacy-functions.ts). */
export const chatLegacyRequestWire: fc.Arbitrary<ChatRequestWire> = fc
  .record(
    {
      model: chatModel,
      functions: fc.array(
        fc.record(
          { name: legacyName, description: text(), parameters },
          { requiredKeys: ["name"] },
        ),
        { maxLength: 3 },
      ),
      function_call: orNull(
        fc.oneof(
          fc.constantFrom("none" as const, "auto" as const),
          fc.record({ name: legacyName }),
        ),
      ),
      messages: fc.array(
        fc.oneof(
          { weight: 2, arbitrary: chatUserMessage },
          { weight: 1, arbitrary: chatSystemMessage },
          {
            weight: 2,
            arbitrary: fc.record(
              {
                role: fc.constant("assistant" as const),
                content: fc.oneof(text(), fc.constant(null)),
                function_call: fc.record({
                  name: legacyName,
                  arguments: fc.oneof({ weight: 5, arbitrary: argumentsJson }, fc.constant("")),
                }),
              },
              { requiredKeys: ["role", "content"] },
            ),
          },
          {
            weight: 2,
            arbitrary: fc.record({
              role: fc.constant("function" as const),
              name: legacyName,
              content: fc.oneof(text(), fc.constant(null)),
            }),
          },
        ),
        { minLength: 1, maxLength: 8 },
      ),
      stream: orNull(fc.boolean()),
    },
    { requiredKeys: ["model", "functions", "messages"] },
  )
  .map(asJson);

// ---------- responses ----------

export const chatUsageWire: fc.Arbitrary<ChatUsage> = fc
  .record({
    cached: tokenCount,
    written: fc.nat({ max: 10_000 }),
    fresh: tokenCount,
    reasoning: tokenCount,
    visible: tokenCount,
    details: fc.constantFrom("none", "openai", "full"),
  })
  .map(({ cached, written, fresh, reasoning, visible, details }): ChatUsage => {
    const prompt = cached + written + fresh;
    const completion = reasoning + visible;
    const usage: ChatUsage = {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
    };
    if (details === "openai") {
      usage.prompt_tokens_details = { cached_tokens: cached };
      usage.completion_tokens_details = { reasoning_tokens: reasoning };
    } else if (details === "full") {
      usage.prompt_tokens_details = { cached_tokens: cached, cache_write_tokens: written };
      usage.completion_tokens_details = { reasoning_tokens: reasoning };
    }
    return usage;
  });

export const chatFinishReasonWire = fc.constantFrom(
  "stop",
  "length",
  "tool_calls",
  "content_filter",
  "function_call",
  "insufficient_system_resource",
);

const responseToolCall: fc.Arbitrary<ChatToolCall> = chatToolCall.map((call) => ({
  ...call,
  type: "function" as const,
}));

const chatTopLogprobWire = fc.record(
  {
    token: fc.string({ maxLength: 6 }),
    logprob: logprobValue,
    bytes: orNull(fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 4 })),
  },
  { requiredKeys: ["token", "logprob"] },
);
const chatTokenLogprobWire = fc
  .tuple(chatTopLogprobWire, orNull(fc.array(chatTopLogprobWire, { maxLength: 3 })))
  .map(([token, top]) => ({ ...token, top_logprobs: top }));
/** `choices[].logprobs` as OpenAI sends it when asked: content tokens, refusal tokens (or null). */
export const chatLogprobsWire = fc.record(
  {
    content: orNull(fc.array(chatTokenLogprobWire, { maxLength: 4 })),
    refusal: orNull(fc.array(chatTokenLogprobWire, { maxLength: 2 })),
  },
  { requiredKeys: [] },
);

export const chatChoiceWire: fc.Arbitrary<ChatChoice> = fc.record(
  {
    index: fc.constant(0),
    message: fc.record(
      {
        role: fc.constant("assistant" as const),
        content: fc.option(text(), { nil: null }),
        refusal: orNull(nonEmptyText()),
        reasoning_content: orNull(text()),
        tool_calls: fc.array(responseToolCall, { maxLength: 3 }),
      },
      { requiredKeys: ["role", "content"] },
    ),
    finish_reason: chatFinishReasonWire,
    logprobs: fc.option(chatLogprobsWire, { nil: null }),
  },
  { requiredKeys: ["index", "message", "finish_reason"] },
);

/** A non-streamed chat response as OpenAI or a compatible upstream sends it. */
export const chatResponseWire: fc.Arbitrary<ChatResponseWire> = fc
  .record(
    {
      id: identifier.map((id) => `chatcmpl-${id}`),
      object: fc.constant("chat.completion"),
      created: fc.integer({ min: 1_600_000_000, max: 2_000_000_000 }),
      model: chatModel,
      choices: fc
        .array(chatChoiceWire, { minLength: 1, maxLength: 3 })
        .map((choices) => choices.map((choice, index) => ({ ...choice, index }))),
      usage: chatUsageWire,
      service_tier: orNull(fc.constantFrom("default", "auto", "flex")),
      system_fingerprint: identifier.map((id) => `fp_${id}`),
    },
    { requiredKeys: ["id", "object", "created", "model", "choices"] },
  )
  .map(asJson);

// ---------- streams ----------

/** Splits `value` at the given fractions (0..1) of its length. */
function split(value: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((c) => Math.floor(c * value.length)))]
    .filter((p) => p > 0 && p < value.length)
    .sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const p of points) {
    out.push(value.slice(from, p));
    from = p;
  }
  out.push(value.slice(from));
  return out;
}

const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 });

/**
 * A response together with the chunks a streaming upstream would send for it: a role chunk,
 * reasoning, content and refusal fragments (token logprobs on the first content fragment, or a
 * chunk of their own), tool calls (id and name on the first fragment only,
 * the arguments split, calls of one choice optionally interleaved), the finish chunk, and the
 * trailing `choices: []` usage chunk, after the finish as OpenAI sends it or on the finish
 * chunk itself as DeepSeek does. `service_tier` rides on every chunk and is read with the usage,
 * so a response without usage is generated without a service tier.
 */
export const chatStreamWire: fc.Arbitrary<{ response: ChatResponseWire; chunks: ChatChunk[] }> = fc
  .record({
    response: chatResponseWire,
    splits: fc.array(
      fc.record({
        reasoning: cuts,
        content: cuts,
        refusal: cuts,
        args: fc.array(cuts, { maxLength: 3 }),
      }),
      {
        minLength: 3,
        maxLength: 3,
      },
    ),
    interleave: fc.boolean(),
    usageOnFinish: fc.boolean(),
  })
  .map(({ response: generated, splits, interleave, usageOnFinish }) => {
    const response = { ...generated };
    if (response.usage == null) delete response.service_tier;
    const head = {
      id: response.id,
      object: "chat.completion.chunk",
      created: response.created,
      model: response.model,
    };
    const chunk = (
      index: number,
      delta: Record<string, unknown>,
      finish: string | null = null,
    ): ChatChunk => ({
      ...head,
      choices: [{ index, delta, finish_reason: finish }],
    });
    const chunks: ChatChunk[] = [];
    response.choices.forEach((choice, c) => {
      const s = splits[c] ?? { reasoning: [], content: [], refusal: [], args: [] };
      const m = choice.message;
      chunks.push(chunk(choice.index, { role: "assistant", content: "" }));
      if (m.reasoning_content) {
        for (const piece of split(m.reasoning_content, s.reasoning))
          chunks.push(chunk(choice.index, { reasoning_content: piece }));
      }
      // Token logprobs ride on the first chunk of their text, or on a chunk of their own.
      const logprobs = (choice.logprobs ?? null) as {
        content?: unknown[] | null;
        refusal?: unknown[] | null;
      } | null;
      const withLogprobs = (c: ChatChunk, field: "content" | "refusal", tokens: unknown[]) => {
        (c.choices[0] as Record<string, unknown>)["logprobs"] = { [field]: tokens };
        return c;
      };
      const contentTokens = logprobs?.content ?? [];
      const refusalTokens = logprobs?.refusal ?? [];
      if (m.content) {
        split(m.content, s.content).forEach((piece, i) => {
          const c = chunk(choice.index, { content: piece });
          chunks.push(
            i === 0 && contentTokens.length > 0 ? withLogprobs(c, "content", contentTokens) : c,
          );
        });
      } else if (contentTokens.length > 0) {
        chunks.push(withLogprobs(chunk(choice.index, {}), "content", contentTokens));
      }
      if (m.refusal)
        for (const piece of split(m.refusal, s.refusal))
          chunks.push(chunk(choice.index, { refusal: piece }));
      if (refusalTokens.length > 0) {
        chunks.push(withLogprobs(chunk(choice.index, {}), "refusal", refusalTokens));
      }
      // The arbitrary replies call functions only.
      const calls = ((m.tool_calls as ChatToolCall[] | undefined) ?? []).map((call, k) => {
        const [first = "", ...rest] = split(call.function.arguments, s.args[k] ?? []);
        return [
          chunk(choice.index, {
            tool_calls: [
              {
                index: k,
                id: call.id,
                type: "function",
                function: { name: call.function.name, arguments: first },
              },
            ],
          }),
          ...rest.map((piece) =>
            chunk(choice.index, { tool_calls: [{ index: k, function: { arguments: piece } }] }),
          ),
        ];
      });
      if (interleave) {
        // Round robin over the calls' fragments: every call starts before any finishes.
        const longest = Math.max(0, ...calls.map((f) => f.length));
        for (let i = 0; i < longest; i++) {
          for (const fragments of calls) {
            const fragment = fragments[i];
            if (fragment !== undefined) chunks.push(fragment);
          }
        }
      } else {
        for (const fragments of calls) chunks.push(...fragments);
      }
      chunks.push(chunk(choice.index, {}, choice.finish_reason));
    });
    const usage = response.usage ?? undefined;
    if (usage !== undefined) {
      const last = chunks[chunks.length - 1];
      if (usageOnFinish && response.choices.length === 1 && last) last.usage = usage;
      else chunks.push({ ...head, choices: [], usage });
    }
    if (typeof response.service_tier === "string") {
      for (const c of chunks) c.service_tier = response.service_tier;
    }
    return { response, chunks };
  });

/** Chunks as SSE messages, `data: [DONE]` last, as an OpenAI upstream frames them. */
export function chatChunksToSse(chunks: readonly unknown[]): SseMessage[] {
  return [...chunks.map((chunk) => ({ data: JSON.stringify(chunk) })), { data: "[DONE]" }];
}

// ---------- canonical values chat expresses (laws 2 to 5) ----------

const withoutKeys = <T extends object, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> => {
  const out = { ...value };
  for (const key of keys) delete out[key];
  return out;
};

/**
 * The part of a canonical request chat carries exactly, so `parse(render(c))` equals `c`:
 * no signatures, no top_k, no file URLs, no tool-result error flags or cache boundaries; a tool
 * result's name is the one its call id implies (parse re-derives it from the earlier call, if any);
 * assistant turns as reasoning (one, non-empty), non-empty texts, then tool calls without cache
 * boundaries; one tool turn per run of tool messages with text results; function tools,
 * OpenAI-defined tools and one web_search (last); thinking as an effort level or disabled; a
 * named json schema; streaming requests ask for usage (the render always does).
 */
export function toChatExpressibleRequest(request: Request): Request {
  const messages: Message[] = [];
  const callNames = new Map<string, string>();
  for (const message of request.messages) {
    if (message.role === "user") {
      const parts = message.parts
        .filter((part) => part.type !== "file" || part.source.type !== "url")
        .map((part) => (part.type === "text" ? withoutKeys(part, "signature") : part))
        // Inline file data goes to OpenAI with a filename, a placeholder when it had none.
        .map((part) =>
          part.type === "file" &&
          part.source.type === "base64" &&
          part.filename === undefined &&
          !part.source.mediaType.startsWith("image/")
            ? { ...part, filename: placeholderFileName(part.source.mediaType) }
            : part,
        );
      messages.push({ ...message, parts });
    } else if (message.role === "assistant") {
      const thinking = message.parts.find(
        (part): part is ThinkingPart => part.type === "thinking" && part.text !== "",
      );
      const texts = message.parts.filter(
        (part): part is TextPart => part.type === "text" && part.text !== "",
      );
      const calls = message.parts.filter((part): part is ToolCallPart => part.type === "tool-call");
      for (const call of calls) callNames.set(call.id, call.name);
      const parts: AssistantPart[] = [
        ...(thinking ? [{ type: "thinking" as const, text: thinking.text }] : []),
        ...texts.map((part) => withoutKeys(part, "signature")),
        ...calls.map((part) => withoutKeys(part, "signature", "cacheControl")),
      ];
      messages.push({ ...message, parts });
    } else {
      const parts = message.parts.map((part): ToolResultPart => {
        const content = part.content
          .filter((item): item is TextPart => item.type === "text")
          .map((item) => withoutKeys(item, "signature"));
        const result: ToolResultPart = {
          type: "tool-result",
          toolCallId: part.toolCallId,
          content: content.length > 0 ? content : [{ type: "text", text: "" }],
        };
        const name = callNames.get(part.toolCallId);
        if (name !== undefined) result.name = name;
        return result;
      });
      const last = messages[messages.length - 1];
      if (last?.role === "tool") last.parts.push(...parts);
      else messages.push({ role: "tool", parts });
    }
  }
  const tools: Tool[] = [];
  let search: Tool | undefined;
  for (const tool of request.tools) {
    if (tool.type === "function") tools.push(withoutKeys(tool, "cacheControl"));
    else if (tool.type === "provider" && tool.provider === "openai" && tool.name !== "function") {
      tools.push({ ...tool, options: withoutKeys(tool.options, "type") });
    } else if (tool.type === "web_search" && search === undefined) {
      search = { type: "web_search", options: tool.options ?? {} };
    }
  }
  if (search !== undefined) tools.push(search);
  const out: Request = {
    ...withoutKeys(request, "thinking", "providerExtras", "extras", "responseFormat"),
    system: request.system.map((part) => withoutKeys(part, "signature")),
    messages,
    sampling: withoutKeys(request.sampling, "topK"),
    tools,
  };
  const thinking = request.thinking;
  if (thinking?.type === "disabled") out.thinking = { type: "disabled" };
  else if (thinking?.type === "enabled" && thinking.effort !== undefined) {
    out.thinking = { type: "enabled", effort: thinking.effort };
  }
  const format = request.responseFormat;
  if (format !== undefined) {
    out.responseFormat =
      format.type === "json-schema" ? { ...format, name: format.name ?? "response" } : format;
  }
  if (request.stream) out.providerExtras = { openai: { includeUsage: true } };
  return out;
}

const chatRawFinish: Readonly<Record<UnifiedFinishReason, FinishReason>> = {
  stop: { unified: "stop", raw: "stop" },
  length: { unified: "length", raw: "length" },
  "tool-calls": { unified: "tool-calls", raw: "tool_calls" },
  "content-filter": { unified: "content-filter", raw: "content_filter" },
  error: { unified: "stop", raw: "stop" },
  other: { unified: "stop", raw: "stop" },
};

/**
 * The part of a canonical response chat carries exactly: per output one reasoning, one text
 * (texts joined), then tool calls, without signatures or redacted thinking; finish reasons with
 * their chat raw value; no stop sequence, safety ratings or prompt feedback; usage without the
 * cache-write split, modalities or inference geo; logprobs only with tokens, without token ids or
 * a mean.
 */
export function toChatExpressibleResponse(response: Response): Response {
  const outputs = outputsOf(response).map((choice): IndexedOutput => {
    const thinking = choice.message.parts.find(
      (part): part is ThinkingPart => part.type === "thinking" && part.text !== "",
    );
    const text = choice.message.parts
      .filter((part): part is TextPart => part.type === "text")
      .map((part) => part.text)
      .join("");
    const calls = choice.message.parts.filter(
      (part): part is ToolCallPart => part.type === "tool-call",
    );
    const parts: AssistantPart[] = [
      ...(thinking ? [{ type: "thinking" as const, text: thinking.text }] : []),
      ...(text === "" ? [] : [{ type: "text" as const, text }]),
      ...calls.map((part) => withoutKeys(part, "signature", "cacheControl")),
    ];
    const out: IndexedOutput = {
      index: choice.index,
      message: { role: "assistant", parts },
      finishReason: chatRawFinish[choice.finishReason.unified],
    };
    const tokens = choice.logprobs?.content ?? [];
    if (tokens.length > 0) {
      const bare = (c: LogprobCandidate) => withoutKeys(c, "tokenId");
      out.logprobs = {
        content: tokens.map((t) => ({ ...bare(t), topLogprobs: t.topLogprobs.map(bare) })),
      };
    }
    return out;
  });
  const base = withoutKeys(
    response,
    "providerExtras",
    "extras",
    "message",
    "finishReason",
    "stopSequence",
    "logprobs",
    "alternatives",
    "noOutput",
  );
  return withOutputs(
    {
      ...base,
      usage: withoutKeys(
        response.usage,
        "cacheWrite5mTokens",
        "cacheWrite1hTokens",
        "providerExtras",
      ),
    },
    outputs,
    undefined,
    String,
  );
}
// Law 1's normal forms: what a same-format parse + render changes (test oracles, not converters).
export { normalizeChatRequest } from "./normalize-chat-request.js";
export { normalizeChatResponse } from "./normalize-chat-response.js";
