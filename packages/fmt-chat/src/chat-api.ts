import { jsonObjectSchema, MAX_TOP_LOGPROBS, zLooseObject, zObject } from "@interlingua/core-types";
import * as z from "zod/mini";
import { chatReasoningDetailSchema, chatThinkingBlockSchema } from "./chat-reasoning-details.js";
import { chatPassThroughShape } from "./chat-request-fields.js";

/**
 * The chat-completions wire format (OpenAI `POST /v1/chat/completions` and the compatible
 * providers), as zod schemas. Requests are validated strictly, the way the spec's chat endpoint
 * answers a client; responses and chunks leniently, the way upstreams really send them.
 */

const count = z.number().check(z.int()).check(z.nonnegative());

// ---------- content blocks ----------

export const chatCacheControlSchema = zObject({
  type: z.literal("ephemeral"),
  ttl: z.optional(z.enum(["5m", "1h"])),
});
export type ChatCacheControl = z.infer<typeof chatCacheControlSchema>;

export const chatTextBlockSchema = zObject({
  type: z.literal("text"),
  text: z.string(),
  cache_control: z.optional(chatCacheControlSchema),
});
export type ChatTextBlock = z.infer<typeof chatTextBlockSchema>;

export const chatImageBlockSchema = zObject({
  type: z.literal("image_url"),
  image_url: zObject({
    /** An http(s) URL or a `data:<mime>;base64,<data>` URI. */
    url: z.string(),
    detail: z.optional(z.enum(["auto", "low", "high"])),
  }),
  cache_control: z.optional(chatCacheControlSchema),
});
export type ChatImageBlock = z.infer<typeof chatImageBlockSchema>;

export const chatFileBlockSchema = zObject({
  type: z.literal("file"),
  file: zObject({
    /** A `data:<mime>;base64,<data>` URI. */
    file_data: z.optional(z.string()),
    file_id: z.optional(z.string()),
    filename: z.optional(z.string()),
  }),
  cache_control: z.optional(chatCacheControlSchema),
});
export type ChatFileBlock = z.infer<typeof chatFileBlockSchema>;

/** Audio input (base64 and its format, `wav` or `mp3`): a canonical audio file part. */
export const chatAudioBlockSchema = zObject({
  type: z.literal("input_audio"),
  input_audio: zObject({ data: z.string(), format: z.string() }),
});
export type ChatAudioBlock = z.infer<typeof chatAudioBlockSchema>;

export const chatRefusalBlockSchema = zObject({
  type: z.literal("refusal"),
  refusal: z.string(),
});
export type ChatRefusalBlock = z.infer<typeof chatRefusalBlockSchema>;

export const chatUserBlockSchema = z.discriminatedUnion("type", [
  chatTextBlockSchema,
  chatImageBlockSchema,
  chatFileBlockSchema,
  chatAudioBlockSchema,
]);
export type ChatUserBlock = z.infer<typeof chatUserBlockSchema>;

export const chatAssistantBlockSchema = z.discriminatedUnion("type", [
  chatTextBlockSchema,
  chatRefusalBlockSchema,
]);
export type ChatAssistantBlock = z.infer<typeof chatAssistantBlockSchema>;

// ---------- messages ----------

export const chatFunctionToolCallSchema = zObject({
  id: z.string(),
  type: z.optional(z.literal("function")),
  function: zObject({ name: z.string(), arguments: z.string() }),
});
export type ChatToolCall = z.infer<typeof chatFunctionToolCallSchema>;

/** A call of a custom (free-form input) tool: its raw input, not JSON. */
export const chatCustomToolCallSchema = zObject({
  id: z.string(),
  type: z.literal("custom"),
  custom: zObject({ name: z.string(), input: z.string() }),
});
export type ChatCustomToolCall = z.infer<typeof chatCustomToolCallSchema>;

export const chatToolCallSchema = z.union([chatFunctionToolCallSchema, chatCustomToolCallSchema]);
export type ChatAnyToolCall = ChatToolCall | ChatCustomToolCall;

export const isChatCustomCall = (call: ChatAnyToolCall): call is ChatCustomToolCall =>
  call.type === "custom";

/** A call as the deprecated `functions` interface writes it: no id, one per assistant turn. */
export const chatFunctionCallSchema = zObject({ name: z.string(), arguments: z.string() });
export type ChatFunctionCall = z.infer<typeof chatFunctionCallSchema>;

const systemShape = {
  content: z.union([z.string(), z.array(chatTextBlockSchema)]),
  name: z.optional(z.string()),
};
export const chatSystemMessageSchema = zObject({ role: z.literal("system"), ...systemShape });
/** OpenAI's newer name for system instructions; parsed as system. */
export const chatDeveloperMessageSchema = zObject({
  role: z.literal("developer"),
  ...systemShape,
});
export type ChatSystemMessage = z.infer<typeof chatSystemMessageSchema>;
export type ChatDeveloperMessage = z.infer<typeof chatDeveloperMessageSchema>;

export const chatUserMessageSchema = zObject({
  role: z.literal("user"),
  content: z.union([z.string(), z.array(chatUserBlockSchema)]),
  name: z.optional(z.string()),
});
export type ChatUserMessage = z.infer<typeof chatUserMessageSchema>;

export const chatAssistantMessageSchema = zObject({
  role: z.literal("assistant"),
  content: z.optional(z.nullable(z.union([z.string(), z.array(chatAssistantBlockSchema)]))),
  refusal: z.optional(z.nullable(z.string())),
  name: z.optional(z.string()),
  tool_calls: z.optional(z.array(chatToolCallSchema)),
  /** The deprecated single call of `functions` (chat-legacy-functions.ts). */
  function_call: z.nullish(chatFunctionCallSchema),
  /** DeepSeek-style reasoning text. */
  reasoning_content: z.optional(z.nullable(z.string())),
  /** Signed and opaque reasoning (OpenRouter's convention; see chat-reasoning-details.ts). */
  reasoning_details: z.nullish(z.array(chatReasoningDetailSchema)),
  /** LiteLLM's convention for the same, read but never written. */
  thinking_blocks: z.nullish(z.array(chatThinkingBlockSchema)),
});
export type ChatAssistantMessage = z.infer<typeof chatAssistantMessageSchema>;

export const chatToolMessageSchema = zObject({
  role: z.literal("tool"),
  tool_call_id: z.string(),
  content: z.union([z.string(), z.array(chatTextBlockSchema)]),
});
export type ChatToolMessage = z.infer<typeof chatToolMessageSchema>;

/** The deprecated result of a `function_call`: answers by function name, not by id. */
export const chatFunctionMessageSchema = zObject({
  role: z.literal("function"),
  name: z.string().check(z.minLength(1)),
  content: z.nullable(z.string()),
});
export type ChatFunctionMessage = z.infer<typeof chatFunctionMessageSchema>;

export const chatMessageSchema = z.discriminatedUnion("role", [
  chatSystemMessageSchema,
  chatDeveloperMessageSchema,
  chatUserMessageSchema,
  chatAssistantMessageSchema,
  chatToolMessageSchema,
  chatFunctionMessageSchema,
]);
export type ChatMessage = z.infer<typeof chatMessageSchema>;

// ---------- tools ----------

export const chatFunctionToolSchema = zObject({
  type: z.literal("function"),
  function: zObject({
    name: z.string().check(z.minLength(1)),
    description: z.optional(z.string()),
    parameters: z.optional(jsonObjectSchema),
    strict: z.optional(z.nullable(z.boolean())),
  }),
});
export type ChatFunctionTool = z.infer<typeof chatFunctionToolSchema>;

/** Any other tool type (OpenAI `custom`, and types added later): carried as given. */
export const chatOtherToolSchema = zLooseObject({ type: z.string().check(z.minLength(1)) });
export type ChatOtherTool = z.infer<typeof chatOtherToolSchema>;

/**
 * A function tool is validated field by field (so a bad one is named precisely); a tool of any
 * other type passes as it is.
 */
export const chatToolSchema = chatOtherToolSchema.check(
  z.superRefine((tool, ctx) => {
    if (tool.type !== "function") return;
    const result = chatFunctionToolSchema.safeParse(tool);
    if (result.success) return;
    for (const issue of result.error.issues) {
      ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
    }
  }),
);
export type ChatTool = ChatFunctionTool | ChatOtherTool;

/** A tool that passed `chatToolSchema` with type "function" has the full function shape. */
/** The parameters of a function tool that gives none: an object with no properties. */
export const defaultToolParameters = (): Record<string, unknown> => ({
  type: "object",
  properties: {},
});

export const isChatFunctionTool = (tool: ChatTool): tool is ChatFunctionTool =>
  tool.type === "function";

export const chatToolChoiceSchema = z.union([
  z.enum(["auto", "none", "required"]),
  zObject({
    type: z.literal("function"),
    function: zObject({ name: z.string().check(z.minLength(1)) }),
  }),
  /** `allowed_tools`, `custom`, and kinds OpenAI adds later: carried as given toward OpenAI. */
  zLooseObject({
    type: z
      .string()
      .check(z.minLength(1))
      .check(z.refine((type) => type !== "function")),
  }),
]);
export type ChatToolChoice = z.infer<typeof chatToolChoiceSchema>;

/** A function of the deprecated `functions` list: a function tool's `function` without `strict`. */
export const chatFunctionSchema = zObject({
  name: z.string().check(z.minLength(1)),
  description: z.optional(z.string()),
  parameters: z.optional(jsonObjectSchema),
});
export type ChatFunction = z.infer<typeof chatFunctionSchema>;

/** The deprecated `function_call`: chat's tool choice for `functions`. */
export const chatFunctionChoiceSchema = z.union([
  z.enum(["none", "auto"]),
  zObject({ name: z.string().check(z.minLength(1)) }),
]);
export type ChatFunctionChoice = z.infer<typeof chatFunctionChoiceSchema>;

export const chatResponseFormatSchema = z.discriminatedUnion("type", [
  zObject({ type: z.literal("text") }),
  zObject({ type: z.literal("json_object") }),
  zObject({
    type: z.literal("json_schema"),
    json_schema: zObject({
      name: z.string(),
      description: z.optional(z.string()),
      schema: z.optional(jsonObjectSchema),
      strict: z.optional(z.nullable(z.boolean())),
    }),
  }),
]);
export type ChatResponseFormat = z.infer<typeof chatResponseFormatSchema>;

// ---------- request ----------

/** Optional request fields also accept `null` (OpenAI's SDKs and many clients send it for "unset"). */
const nullish = <T extends z.ZodMiniType>(schema: T) => z.optional(z.nullable(schema));

// The schema-level error would word every issue of the number, its range checks included; it is
// for a value that is not a number at all (a quoted "2" most often), so it says only that.
const bareInteger = () =>
  z
    .number({
      error: (issue) =>
        issue.code === "invalid_type"
          ? "must be a bare JSON integer (a quoted number is not accepted)"
          : undefined,
    })
    .check(z.int({ error: "must be an integer" }));

/** `n: must be at least 1 (got 0)`: the bound and the value the client sent. */
const atLeast = (min: number) =>
  z.gte(min, { error: (issue) => `must be at least ${min} (got ${String(issue.input)})` });
const atMost = (max: number) =>
  z.lte(max, { error: (issue) => `must be at most ${max} (got ${String(issue.input)})` });

export const chatRequestShape = {
  model: z.string().check(z.minLength(1)),
  messages: z.array(chatMessageSchema),
  temperature: nullish(z.number().check(z.gte(0)).check(z.lte(2))),
  top_p: nullish(z.number().check(z.gte(0)).check(z.lte(1))),
  frequency_penalty: nullish(z.number().check(z.gte(-2)).check(z.lte(2))),
  presence_penalty: nullish(z.number().check(z.gte(-2)).check(z.lte(2))),
  stop: nullish(
    z.union([
      z.string(),
      z.array(z.string()).check(z.maxLength(4, { error: "at most 4 stop sequences are allowed" })),
    ]),
  ),
  n: nullish(bareInteger().check(atLeast(1))),
  max_tokens: nullish(bareInteger().check(atLeast(1))),
  max_completion_tokens: nullish(bareInteger().check(atLeast(1))),
  seed: nullish(bareInteger()),
  user: nullish(z.string()),
  tools: nullish(z.array(chatToolSchema)),
  tool_choice: nullish(chatToolChoiceSchema),
  /** Deprecated forms of `tools` and `tool_choice`, still accepted by OpenAI. */
  functions: nullish(z.array(chatFunctionSchema)),
  function_call: nullish(chatFunctionChoiceSchema),
  parallel_tool_calls: nullish(z.boolean()),
  response_format: nullish(chatResponseFormatSchema),
  stream: nullish(z.boolean()),
  stream_options: nullish(zObject({ include_usage: z.optional(z.boolean()) })),
  /** minimal | low | medium | high | none; other values pass through in extras. */
  reasoning_effort: nullish(z.string()),
  metadata: nullish(jsonObjectSchema),
  /** Search-model options; parsed as the canonical web_search tool. */
  web_search_options: nullish(jsonObjectSchema),
  logprobs: nullish(z.boolean()),
  top_logprobs: nullish(bareInteger().check(atLeast(0)).check(atMost(MAX_TOP_LOGPROBS))),
};

/**
 * Unknown top-level fields are kept (they go to `extras.chat`); the known ones the canonical model
 * does not interpret are validated (chat-request-fields.ts) and kept the same way.
 */
export const chatRequestSchema = zLooseObject({ ...chatRequestShape, ...chatPassThroughShape });
export type ChatRequestWire = z.infer<typeof chatRequestSchema>;
export const chatRequestKeys: ReadonlySet<string> = new Set(Object.keys(chatRequestShape));

// ---------- response ----------

export const chatUsageSchema = zObject({
  prompt_tokens: count,
  completion_tokens: count,
  total_tokens: z.optional(count),
  prompt_tokens_details: z.optional(
    z.nullable(
      zObject({
        cached_tokens: z.optional(z.nullable(count)),
        cache_write_tokens: z.optional(z.nullable(count)),
      }),
    ),
  ),
  completion_tokens_details: z.optional(
    z.nullable(zObject({ reasoning_tokens: z.optional(z.nullable(count)) })),
  ),
});
export type ChatUsage = z.infer<typeof chatUsageSchema>;

export const chatResponseMessageSchema = zObject({
  role: z.optional(z.literal("assistant")),
  content: z.optional(z.nullable(z.string())),
  refusal: z.optional(z.nullable(z.string())),
  reasoning_content: z.optional(z.nullable(z.string())),
  /** The field name some compatible providers (Groq, OpenRouter) use for reasoning_content. */
  reasoning: z.optional(z.nullable(z.string())),
  tool_calls: z.optional(z.nullable(z.array(chatToolCallSchema))),
  /** The reply to a request with `functions`: one call, no id. */
  function_call: z.nullish(chatFunctionCallSchema),
  reasoning_details: z.nullish(z.array(chatReasoningDetailSchema)),
  thinking_blocks: z.nullish(z.array(chatThinkingBlockSchema)),
  /** Web-search sources; `url_citation` ones become text-part citations, others are skipped. */
  annotations: z.nullish(z.array(z.unknown())),
});
export type ChatResponseMessage = z.infer<typeof chatResponseMessageSchema>;

export const chatFinishReasons = [
  "stop",
  "length",
  "content_filter",
  "function_call",
  "tool_calls",
] as const;
export type ChatFinishReason = (typeof chatFinishReasons)[number];

export const chatChoiceSchema = zObject({
  index: count,
  message: chatResponseMessageSchema,
  finish_reason: z.nullable(z.string()),
  logprobs: z.optional(z.unknown()),
});
export type ChatChoice = z.infer<typeof chatChoiceSchema>;

export const chatResponseShape = {
  id: z.string(),
  object: z.optional(z.string()),
  created: count,
  model: z.string(),
  choices: z.array(chatChoiceSchema),
  usage: z.optional(z.nullable(chatUsageSchema)),
  service_tier: z.optional(z.nullable(z.string())),
};
/** Unknown top-level fields (system_fingerprint, x_groq, ...) are kept in `extras.chat`. */
export const chatResponseSchema = zLooseObject(chatResponseShape);
export type ChatResponseWire = z.infer<typeof chatResponseSchema>;
export const chatResponseKeys: ReadonlySet<string> = new Set(Object.keys(chatResponseShape));
