/**
 * Hand-written fast-check arbitraries of the responses WIRE format: request bodies (every field
 * of docs/api-reference.md's `POST /v1/responses`, the OpenAI Responses conventions the codec accepts, and
 * unknown top-level fields) and result bodies. Every generated value passes its zod schema (a
 * property test proves it), so the cross-format conformance suite can reuse them.
 */

import {
  type AssistantPart,
  type LogprobCandidate,
  type Message,
  outputsOf,
  type Request,
  type Response,
  type Tool,
  type ToolMessage,
  type ToolResultContent,
  type Usage,
  type UserPart,
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
  nonEmptyText,
  text,
  tokenCount,
} from "@interlingua/core-types/testing";
import {
  parseResponsesFinishReason,
  renderInterlinguaResponsesFinishReason,
  renderResponsesFinishReason,
  resultFinishReasonToUnified,
} from "./map-responses-finish-reason.js";
import type {
  InterlinguaResponsesRequestWire,
  InterlinguaResponsesResponseWire,
  ResponsesInputImageBlock,
  ResponsesInputItem,
  ResponsesInputTextBlock,
  ResponsesResultChoice,
  ResponsesTool,
  ResponsesToolChoice,
} from "./responses-api.js";

export { fc };

const nullable = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(null) });

export const inputTextBlock: fc.Arbitrary<ResponsesInputTextBlock> = fc.record({
  type: fc.constant("input_text" as const),
  text: text(),
});

/** An http(s) URL or a full data URI of one of the four image types, as the spec allows. */
export const imageUrl: fc.Arbitrary<string> = fc.oneof(
  httpUrl,
  fc.tuple(imageMediaType, base64).map(([type, data]) => `data:${type};base64,${data}`),
);

export const inputImageBlock: fc.Arbitrary<ResponsesInputImageBlock> = fc.record(
  {
    type: fc.constant("input_image" as const),
    image_url: imageUrl,
    detail: fc.constantFrom("auto" as const, "low" as const, "high" as const),
  },
  { requiredKeys: ["type", "image_url"] },
);

const userBlock = fc.oneof(
  { weight: 3, arbitrary: inputTextBlock },
  { weight: 1, arbitrary: inputImageBlock },
);

/** Fields real clients put on replayed items; the codec ignores them. */
const replayFields = { id: identifier, status: fc.constantFrom("completed", "in_progress") };

export const userItem: fc.Arbitrary<ResponsesInputItem> = fc.record(
  {
    type: fc.constant("message" as const),
    role: fc.constant("user" as const),
    content: fc.oneof(text(), fc.array(userBlock, { maxLength: 4 })),
  },
  { requiredKeys: ["role", "content"] },
);

export const systemItem: fc.Arbitrary<ResponsesInputItem> = fc.record(
  {
    type: fc.constant("message" as const),
    role: fc.constantFrom("system" as const, "developer" as const),
    content: fc.oneof(text(), fc.array(inputTextBlock, { maxLength: 3 })),
  },
  { requiredKeys: ["role", "content"] },
);

const assistantBlock = fc.oneof(
  fc.record(
    {
      type: fc.constant("output_text" as const),
      text: text(),
      annotations: fc.constant([] as unknown[]),
    },
    { requiredKeys: ["type", "text"] },
  ),
  inputTextBlock,
);

export const assistantItem: fc.Arbitrary<ResponsesInputItem> = fc.record(
  {
    type: fc.constant("message" as const),
    role: fc.constant("assistant" as const),
    content: fc.oneof(text(), fc.array(assistantBlock, { maxLength: 3 })),
    ...replayFields,
  },
  { requiredKeys: ["role", "content"] },
);

export const functionCallItem: fc.Arbitrary<ResponsesInputItem> = fc.record(
  {
    type: fc.constant("function_call" as const),
    call_id: identifier,
    name: identifier,
    arguments: fc.oneof(
      { weight: 5, arbitrary: argumentsJson },
      { weight: 1, arbitrary: fc.constant("") },
    ),
    ...replayFields,
  },
  { requiredKeys: ["type", "call_id", "name", "arguments"] },
);

export const functionCallOutputItem: fc.Arbitrary<ResponsesInputItem> = fc.record({
  type: fc.constant("function_call_output" as const),
  call_id: identifier,
  output: fc.oneof(text(), fc.array(userBlock, { maxLength: 3 })),
});

export const reasoningItem: fc.Arbitrary<ResponsesInputItem> = fc.record(
  {
    type: fc.constant("reasoning" as const),
    id: identifier.map((id) => `rs_${id}`),
    summary: fc.array(fc.record({ type: fc.constant("summary_text" as const), text: text() }), {
      maxLength: 3,
    }),
    encrypted_content: nullable(base64),
  },
  { requiredKeys: ["type", "summary"] },
);

export const inputItem: fc.Arbitrary<ResponsesInputItem> = fc.oneof(
  { weight: 4, arbitrary: userItem },
  { weight: 1, arbitrary: systemItem },
  { weight: 3, arbitrary: assistantItem },
  { weight: 2, arbitrary: functionCallItem },
  { weight: 2, arbitrary: functionCallOutputItem },
  { weight: 1, arbitrary: reasoningItem },
);

const parametersSchema = fc.record({
  type: fc.constant("object"),
  properties: fc.dictionary(
    identifier,
    fc.record({ type: fc.constantFrom("string", "number", "boolean") }),
    { maxKeys: 3 },
  ),
  required: fc.array(identifier, { maxLength: 2 }),
});

/** All four spec tool types, the function tool in both its nested and its flat shape. */
export const tool: fc.Arbitrary<ResponsesTool> = fc.oneof(
  fc.record({
    type: fc.constant("function" as const),
    function: fc.record(
      { name: identifier, description: text(), parameters: parametersSchema, strict: fc.boolean() },
      { requiredKeys: ["name", "description"] },
    ),
  }),
  fc.record(
    {
      type: fc.constant("function" as const),
      name: identifier,
      description: text(),
      parameters: parametersSchema,
      // LangChain's bindTools sends strict: null and may leave out the description.
      strict: nullable(fc.boolean()),
    },
    { requiredKeys: ["type", "name"] },
  ),
  fc.record(
    {
      type: fc.constant("web_search" as const),
      search_context_size: fc.constantFrom("low", "medium", "high"),
    },
    { requiredKeys: ["type"] },
  ),
  fc.record(
    {
      type: fc.constant("file_search" as const),
      vector_store_ids: fc.array(identifier, { minLength: 1, maxLength: 2 }),
      max_num_results: fc.integer({ min: 1, max: 50 }),
    },
    { requiredKeys: ["type"] },
  ),
  fc.record({
    type: fc.constant("remote_mcp" as const),
    remote_mcp: fc.record(
      { url: httpUrl, auth_token: nonEmptyText(), timeout: fc.integer({ min: 1, max: 600 }) },
      { requiredKeys: ["url"] },
    ),
  }),
);

export const toolChoice: fc.Arbitrary<ResponsesToolChoice> = fc.oneof(
  fc.constantFrom("auto" as const, "none" as const, "required" as const),
  fc.record({ type: fc.constant("function" as const), name: identifier }),
  fc.record({ type: fc.constant("function" as const), function: fc.record({ name: identifier }) }),
  fc.record({
    type: fc.constant("allowed_tools" as const),
    mode: fc.constantFrom("auto" as const, "required" as const),
    tools: fc.array(fc.record({ type: fc.constant("function" as const), name: identifier }), {
      minLength: 1,
      maxLength: 3,
    }),
  }),
);

const reasoning = fc.record(
  {
    effort: nullable(
      fc.constantFrom(
        "none" as const,
        "minimal" as const,
        "low" as const,
        "medium" as const,
        "high" as const,
      ),
    ),
    summary: nullable(fc.constantFrom("auto" as const, "concise" as const, "detailed" as const)),
    generate_summary: fc.constantFrom("auto", "concise"),
  },
  { requiredKeys: [] },
);

const textConfig = fc.record(
  {
    format: fc.oneof(
      fc.constant({ type: "text" as const }),
      fc.constant({ type: "json_object" as const }),
      fc.record(
        {
          type: fc.constant("json_schema" as const),
          name: identifier,
          schema: jsonObject,
          strict: nullable(fc.boolean()),
          description: text(),
        },
        { requiredKeys: ["type", "schema"] },
      ),
    ),
    verbosity: fc.constantFrom("low", "medium", "high"),
  },
  { requiredKeys: [] },
);

/** Fields the spec does not show, which same-format round trips must keep. */
const unknownFields = {
  previous_response_id: nullable(identifier.map((id) => `resp_${id}`)),
  store: fc.boolean(),
  include: fc.array(
    fc.constantFrom(
      "reasoning.encrypted_content",
      "file_search_call.results",
      "message.output_text.logprobs",
    ),
    { maxLength: 3 },
  ),
  truncation: fc.constantFrom("auto", "disabled"),
  service_tier: fc.constantFrom("auto", "default", "flex"),
};

export const requestWire: fc.Arbitrary<InterlinguaResponsesRequestWire> = fc.record(
  {
    model: fc.constantFrom("txtA-5.2-pro", "txtA-5.2-codex"),
    input: fc.oneof(
      { weight: 1, arbitrary: text() },
      { weight: 4, arbitrary: fc.array(inputItem, { minLength: 1, maxLength: 8 }) },
    ),
    instructions: nullable(text()),
    temperature: nullable(decimal(0, 2)),
    top_p: nullable(decimal(0, 1)),
    max_tokens: nullable(fc.integer({ min: 1, max: 128_000 })),
    max_output_tokens: nullable(fc.integer({ min: 1, max: 128_000 })),
    stream: nullable(fc.boolean()),
    tools: fc.array(tool, { maxLength: 4 }),
    tool_choice: nullable(toolChoice),
    parallel_tool_calls: nullable(fc.boolean()),
    reasoning: nullable(reasoning),
    text: nullable(textConfig),
    user: nullable(identifier),
    metadata: nullable(fc.dictionary(identifier, fc.string({ maxLength: 12 }), { maxKeys: 3 })),
    top_logprobs: nullable(fc.integer({ min: 0, max: 20 })),
    ...unknownFields,
  },
  { requiredKeys: ["model", "input"] },
);

const resultToolCall = fc.record({
  id: identifier.map((id) => `call_${id}`),
  type: fc.constant("function" as const),
  function: fc.record({
    name: identifier,
    arguments: fc.oneof(
      { weight: 5, arbitrary: argumentsJson },
      { weight: 1, arbitrary: fc.constant("") },
    ),
  }),
});

const resultChoice = (index: number): fc.Arbitrary<ResponsesResultChoice> =>
  fc.record(
    {
      index: fc.constant(index),
      message: fc.record(
        {
          role: fc.constant("assistant" as const),
          content: nullable(text()),
          tool_calls: fc.array(resultToolCall, { maxLength: 3 }),
          refusal: fc.constant(null),
        },
        { requiredKeys: ["role", "content"] },
      ),
      finish_reason: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom("stop", "length", "content_filter", "tool_calls") },
        { weight: 1, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.constantFrom("function_call", "end_turn") },
      ),
      logprobs: fc.constant(null),
    },
    { requiredKeys: ["index", "message", "finish_reason"] },
  );

/** A result body; `total_tokens` is usually, not always, the sum (normalisation recomputes it). */
export const interlinguaResponseWire: fc.Arbitrary<InterlinguaResponsesResponseWire> = fc
  .record(
    {
      id: identifier.map((id) => `resp_${id}`),
      object: fc.constant("response" as const),
      created: fc.integer({ min: 1_600_000_000, max: 2_000_000_000 }),
      model: fc.constantFrom("txtA-5.2-pro", "txtA-5.2-codex"),
      choiceCount: fc.integer({ min: 1, max: 3 }),
      prompt: tokenCount,
      completion: tokenCount,
      skew: fc.oneof(
        { weight: 5, arbitrary: fc.constant(0) },
        { weight: 1, arbitrary: fc.nat(10) },
      ),
      system_fingerprint: fc.option(identifier, { nil: undefined }),
    },
    {
      requiredKeys: [
        "id",
        "object",
        "created",
        "model",
        "choiceCount",
        "prompt",
        "completion",
        "skew",
      ],
    },
  )
  .chain(({ choiceCount, prompt, completion, skew, system_fingerprint, ...head }) =>
    fc.tuple(...Array.from({ length: choiceCount }, (_, i) => resultChoice(i))).map((choices) => {
      const wire: InterlinguaResponsesResponseWire = {
        ...head,
        choices,
        usage: {
          prompt_tokens: prompt,
          completion_tokens: completion,
          total_tokens: prompt + completion + skew,
        },
      };
      if (system_fingerprint !== undefined) wire["system_fingerprint"] = system_fingerprint;
      return wire;
    }),
  );

/*
 * Restrictions of canonical values to what the responses format expresses, for law 2 and law 4
 * (and the cross-format suite). Each maps a generated canonical value to the nearest value the
 * format carries without loss; the comments say what the format cannot carry.
 */

const withoutKeys = <T extends object>(value: T, keys: readonly string[]): T => {
  const out = { ...value } as Record<string, unknown>;
  for (const key of keys) delete out[key];
  return out as T;
};

/** A request the responses format carries losslessly (law 2). */
export function expressibleInterlinguaRequest(request: Request): Request {
  const out: Request = {
    model: request.model,
    // no cache boundaries, no signatures on text
    system: request.system.map((part) => ({ type: "text", text: part.text })),
    messages: expressibleMessages(request.messages),
    // only temperature, top_p and max_tokens exist
    sampling: pick(request.sampling, ["temperature", "topP", "maxTokens"]),
    tools: request.tools.flatMap(expressibleTool),
    stream: request.stream,
  };
  for (const key of [
    "toolChoice",
    "parallelToolCalls",
    "responseFormat",
    "user",
    "metadata",
  ] as const) {
    if (request[key] !== undefined) (out as Record<string, unknown>)[key] = request[key];
  }
  // logprobs is an include entry: there or not, so false is not carried
  if (request.logprobs === true) out.logprobs = true;
  if (request.topLogprobs !== undefined) out.topLogprobs = request.topLogprobs;
  const thinking = request.thinking;
  if (thinking) {
    // effort (or none), or no effort with a summary request; no token budget
    const summary = thinking.includeThoughts === true ? { includeThoughts: true } : {};
    if (thinking.type === "disabled") out.thinking = { type: "disabled", ...summary };
    else if (thinking.type === "enabled")
      out.thinking = { type: "enabled", effort: thinking.effort ?? "medium", ...summary };
    else out.thinking = { type: "adaptive", includeThoughts: true };
  }
  return out;
}

function expressibleTool(tool: Tool): Tool[] {
  switch (tool.type) {
    case "function":
      // description is required; no cache boundaries
      return [{ ...withoutKeys(tool, ["cacheControl"]), description: tool.description ?? "" }];
    case "web_search":
    case "file_search": {
      // options are the wire object's other fields: never `type`, and none is no options
      const options = withoutKeys(tool.options ?? {}, ["type"]);
      return [Object.keys(options).length > 0 ? { type: tool.type, options } : { type: tool.type }];
    }
    case "remote_mcp":
      return [tool];
    default:
      // provider tools belong to their provider's protocol
      return [];
  }
}

function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): T {
  const out = {} as T;
  for (const key of keys) if (value[key] !== undefined) out[key] = value[key];
  return out;
}

function expressibleMessages(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  const callNames = new Map<string, string>();
  for (const message of messages) {
    const last = out[out.length - 1];
    switch (message.role) {
      case "user":
        // no names, no file blocks, no cache boundaries or signatures
        out.push({
          role: "user",
          parts: message.parts.flatMap((part): UserPart[] => {
            if (part.type === "file") return [];
            if (part.type === "text") return [{ type: "text", text: part.text }];
            return [withoutKeys(part, ["cacheControl"])];
          }),
        });
        break;
      case "assistant": {
        // text, calls and thinking only; adjacent assistant turns are one turn
        const parts = message.parts.flatMap((part): AssistantPart[] => {
          switch (part.type) {
            case "text":
              return [{ type: "text", text: part.text }];
            case "tool-call":
              callNames.set(part.id, part.name);
              return [
                { type: "tool-call", id: part.id, name: part.name, arguments: part.arguments },
              ];
            case "thinking":
              return [part];
            default:
              return [];
          }
        });
        if (last?.role === "assistant") last.parts.push(...parts);
        else out.push({ role: "assistant", parts });
        break;
      }
      case "tool": {
        // no error flag, no cache boundaries; a name only where the call it answers implies it
        const parts = message.parts.map((part): ToolMessage["parts"][number] => {
          const result: ToolMessage["parts"][number] = {
            type: "tool-result",
            toolCallId: part.toolCallId,
            content: part.content.map(
              (content): ToolResultContent =>
                content.type === "text"
                  ? { type: "text", text: content.text }
                  : withoutKeys(content, ["cacheControl"]),
            ),
          };
          const name = callNames.get(part.toolCallId);
          if (name !== undefined) result.name = name;
          return result;
        });
        if (last?.role === "tool") last.parts.push(...parts);
        else out.push({ role: "tool", parts });
        break;
      }
    }
  }
  return out;
}

const resultUsage = (usage: Usage): Usage => ({
  inputTokens: usage.inputTokens,
  outputTokens: usage.outputTokens,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  thinkingTokens: 0,
});

/**
 * A response the result shape carries losslessly (law 2): per output one text (or none) before
 * its calls, no thinking, a finish reason of the four with its raw value, usage totals only.
 */
export function expressibleInterlinguaResponse(response: Response): Response {
  const base = {
    id: response.id,
    model: response.model,
    created: response.created,
    usage: resultUsage(response.usage),
  };
  return withOutputs(
    base,
    outputsOf(response).map((choice) => {
      const texts = choice.message.parts.flatMap((p) => (p.type === "text" ? [p.text] : []));
      const calls = choice.message.parts.flatMap((p): AssistantPart[] =>
        p.type === "tool-call"
          ? [{ type: "tool-call", id: p.id, name: p.name, arguments: p.arguments }]
          : [],
      );
      const parts: AssistantPart[] =
        texts.length > 0 ? [{ type: "text", text: texts.join("") }, ...calls] : calls;
      const raw = renderInterlinguaResponsesFinishReason(choice.finishReason);
      return {
        index: choice.index,
        message: { role: "assistant", parts },
        finishReason: { unified: resultFinishReasonToUnified[raw], raw },
      };
    }),
    undefined,
    String,
  );
}

/**
 * A response the responses STREAM carries losslessly (law 3): one output; text, calls and
 * thinking (with its signature as encrypted_content); the finish reason as a status reads it
 * back; usage without cache-write or label fields.
 */
export function expressibleStreamResponse(response: Response): Response {
  const choice = outputsOf(response)[0];
  const parts = (choice?.message.parts ?? []).flatMap((part): AssistantPart[] => {
    switch (part.type) {
      case "text":
        return [{ type: "text", text: part.text }];
      case "tool-call":
        return [{ type: "tool-call", id: part.id, name: part.name, arguments: part.arguments }];
      case "thinking":
        return [part];
      default:
        return [];
    }
  });
  const madeCalls = parts.some((p) => p.type === "tool-call");
  const given = choice?.finishReason ?? { unified: "stop" };
  const terminal = renderResponsesFinishReason(
    given.unified === "error" ? { unified: "stop" } : given,
  );
  const out: Response = {
    id: response.id,
    model: response.model,
    created: response.created,
    message: { role: "assistant", parts },
    finishReason: parseResponsesFinishReason(terminal.status, terminal.incompleteReason, madeCalls),
    usage: {
      inputTokens: response.usage.inputTokens,
      outputTokens: response.usage.outputTokens,
      cachedInputTokens: response.usage.cachedInputTokens,
      cacheWriteTokens: 0,
      thinkingTokens: response.usage.thinkingTokens,
    },
  };
  // logprobs ride on an output_text: tokens only, without ids or a mean, bytes never empty
  const tokens = choice?.logprobs?.content ?? [];
  if (tokens.length > 0 && parts.some((p) => p.type === "text")) {
    const bare = (c: LogprobCandidate): LogprobCandidate => {
      const { tokenId: _id, bytes, ...rest } = c;
      return bytes === undefined || bytes.length === 0 ? rest : { ...rest, bytes };
    };
    out.logprobs = {
      content: tokens.map((t) => ({ ...bare(t), topLogprobs: t.topLogprobs.map(bare) })),
    };
  }
  return out;
}
// Law 1's normal forms: what a same-format parse + render changes (test oracles, not converters).
export {
  normalizeResponsesRequest,
  normalizeResponsesResponse,
} from "./normalize-responses-api.js";
export { normalizeInterlinguaResponsesRequest } from "./normalize-responses-request.js";
export { normalizeInterlinguaResponsesResponse } from "./normalize-responses-response.js";
export * from "./responses-api-testing.js";
