import { jsonObjectSchema, zLooseObject, zObject } from "@interlingua/core-types";
import * as z from "zod/mini";
import type { MessagesCitedTextBlock } from "./messages-citations.js";
import { MESSAGES_MAX_TEMPERATURE } from "./messages-model-defaults.js";
import { messagesPassThroughShape } from "./messages-request-fields.js";

/**
 * Wire schemas of the messages format (Anthropic Messages API, `POST /v1/messages`). They are the
 * oracle for parsing and for the generated test values. Objects strip unknown keys (docs/api-reference.md:
 * parsers ignore upstream-added fields such as `caller`), except the request's top level, whose
 * unknown fields are kept in `extras.messages` by the parser.
 */

/** `null` is what the official SDKs send for "not set", so optional wire fields accept it. */
const opt = <T extends z.ZodMiniType>(schema: T) => z.nullish(schema);

export const messagesCacheControlSchema = zObject({
  type: z.literal("ephemeral"),
  ttl: z.optional(z.enum(["5m", "1h"])),
});
export type MessagesCacheControl = z.infer<typeof messagesCacheControlSchema>;

export const messagesTextBlockSchema = zObject({
  type: z.literal("text"),
  text: z.string(),
  cache_control: opt(messagesCacheControlSchema),
  /** Citation records; `web_search_result_location` ones become canonical citations. */
  citations: opt(z.array(z.unknown())),
});
export type MessagesTextBlock = z.infer<typeof messagesTextBlockSchema>;

export const messagesImageSourceSchema = z.discriminatedUnion("type", [
  zObject({ type: z.literal("base64"), media_type: z.string(), data: z.string() }),
  zObject({ type: z.literal("url"), url: z.string() }),
]);
export type MessagesImageSource = z.infer<typeof messagesImageSourceSchema>;

export const messagesImageBlockSchema = zObject({
  type: z.literal("image"),
  source: messagesImageSourceSchema,
  cache_control: opt(messagesCacheControlSchema),
});
export type MessagesImageBlock = z.infer<typeof messagesImageBlockSchema>;

export const messagesDocumentSourceSchema = z.discriminatedUnion("type", [
  zObject({ type: z.literal("base64"), media_type: z.string(), data: z.string() }),
  zObject({ type: z.literal("url"), url: z.string() }),
  zObject({ type: z.literal("text"), media_type: z.literal("text/plain"), data: z.string() }),
  zObject({ type: z.literal("file"), file_id: z.string() }),
]);
export type MessagesDocumentSource = z.infer<typeof messagesDocumentSourceSchema>;

export const messagesDocumentBlockSchema = zObject({
  type: z.literal("document"),
  source: messagesDocumentSourceSchema,
  title: opt(z.string()),
  /** Kept on the canonical file part (`context`, `citations`); other formats report them. */
  context: opt(z.string()),
  citations: opt(zObject({ enabled: z.optional(z.boolean()) })),
  cache_control: opt(messagesCacheControlSchema),
});
export type MessagesDocumentBlock = z.infer<typeof messagesDocumentBlockSchema>;

export const messagesToolUseBlockSchema = zObject({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  input: jsonObjectSchema,
  cache_control: opt(messagesCacheControlSchema),
});
export type MessagesToolUseBlock = z.infer<typeof messagesToolUseBlockSchema>;

export const messagesToolResultContentSchema = z.discriminatedUnion("type", [
  messagesTextBlockSchema,
  messagesImageBlockSchema,
]);
export type MessagesToolResultContent = z.infer<typeof messagesToolResultContentSchema>;

export const messagesToolResultBlockSchema = zObject({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  content: z.optional(z.union([z.string(), z.array(messagesToolResultContentSchema)])),
  is_error: opt(z.boolean()),
  cache_control: opt(messagesCacheControlSchema),
});
export type MessagesToolResultBlock = z.infer<typeof messagesToolResultBlockSchema>;

export const messagesThinkingBlockSchema = zObject({
  type: z.literal("thinking"),
  thinking: z.string(),
  /** Required by Anthropic when a thinking block is sent back; tolerated missing on parse. */
  signature: z.optional(z.string()),
});
export type MessagesThinkingBlock = z.infer<typeof messagesThinkingBlockSchema>;

export const messagesRedactedThinkingBlockSchema = zObject({
  type: z.literal("redacted_thinking"),
  data: z.string(),
});
export type MessagesRedactedThinkingBlock = z.infer<typeof messagesRedactedThinkingBlockSchema>;

export const messagesContentBlockSchema = z.discriminatedUnion("type", [
  messagesTextBlockSchema,
  messagesImageBlockSchema,
  messagesDocumentBlockSchema,
  messagesToolUseBlockSchema,
  messagesToolResultBlockSchema,
  messagesThinkingBlockSchema,
  messagesRedactedThinkingBlockSchema,
]);
export type MessagesContentBlock = z.infer<typeof messagesContentBlockSchema>;

export const messagesMessageSchema = zObject({
  /** `system` mid-conversation: Claude Code 2.x sends its environment notes so. */
  role: z.enum(["user", "assistant", "system"]),
  content: z.union([z.string(), z.array(messagesContentBlockSchema)]),
});
export type MessagesMessage = z.infer<typeof messagesMessageSchema>;

/** A custom (function) tool. `type: "custom"` is optional on the wire. */
export const messagesCustomToolSchema = zObject({
  type: z.optional(z.literal("custom")),
  name: z.string().check(z.minLength(1)),
  description: z.optional(z.string()),
  input_schema: jsonObjectSchema,
  strict: z.optional(z.boolean()),
  cache_control: opt(messagesCacheControlSchema),
});
export type MessagesCustomTool = z.infer<typeof messagesCustomToolSchema>;

/**
 * A tool defined by Anthropic (computer_20241022, text_editor_20241022, bash_20241022,
 * web_search_20250305 and newer dated variants): the dated `type` names it, every other field is
 * its configuration and is carried untouched.
 */
export const messagesProviderToolSchema = zLooseObject({
  type: z.string().check(z.regex(/^(?!custom$).+/, "a provider tool type other than custom")),
  name: z.string(),
});
export type MessagesProviderTool = z.infer<typeof messagesProviderToolSchema>;

export const messagesToolSchema = z.union([messagesCustomToolSchema, messagesProviderToolSchema]);
export type MessagesTool = z.infer<typeof messagesToolSchema>;

const parallel = { disable_parallel_tool_use: z.optional(z.boolean()) };
export const messagesToolChoiceSchema = z.discriminatedUnion("type", [
  zObject({ type: z.literal("auto"), ...parallel }),
  zObject({ type: z.literal("any"), ...parallel }),
  zObject({ type: z.literal("tool"), name: z.string().check(z.minLength(1)), ...parallel }),
  zObject({ type: z.literal("none") }),
]);
export type MessagesToolChoice = z.infer<typeof messagesToolChoiceSchema>;

/** `display` chooses summarized or omitted thinking text (Claude 4 models). */
const display = { display: z.optional(z.enum(["summarized", "omitted"])) };
export const messagesThinkingConfigSchema = z.discriminatedUnion("type", [
  zObject({
    type: z.literal("enabled"),
    budget_tokens: z.number().check(z.int()).check(z.gte(0)),
    ...display,
  }),
  zObject({ type: z.literal("disabled") }),
  zObject({ type: z.literal("adaptive"), ...display }),
]);
export type MessagesThinkingConfig = z.infer<typeof messagesThinkingConfigSchema>;

export const messagesMetadataSchema = zLooseObject({ user_id: opt(z.string()) });
export type MessagesMetadata = z.infer<typeof messagesMetadataSchema>;

/** The top-level fields the codec understands; everything else goes to `extras.messages`. */
export const messagesRequestKnownKeys = [
  "model",
  "messages",
  "max_tokens",
  "system",
  "temperature",
  "top_p",
  "top_k",
  "stop_sequences",
  "metadata",
  "tools",
  "tool_choice",
  "thinking",
  "stream",
] as const;

export const messagesRequestSchema = zLooseObject({
  model: z.string().check(z.minLength(1)),
  messages: z.array(messagesMessageSchema).check(z.minLength(1)),
  max_tokens: z.number().check(z.int()).check(z.gte(1)),
  system: z.optional(z.union([z.string(), z.array(messagesTextBlockSchema)])),
  // A messages client's own limit, Anthropic's: above it is a 400, as Anthropic answers.
  temperature: z.optional(z.number().check(z.gte(0)).check(z.lte(MESSAGES_MAX_TEMPERATURE))),
  top_p: z.optional(z.number().check(z.gte(0)).check(z.lte(1))),
  top_k: z.optional(z.number().check(z.int()).check(z.gte(0))),
  stop_sequences: z.optional(z.array(z.string()).check(z.maxLength(4))),
  metadata: z.optional(messagesMetadataSchema),
  tools: z.optional(z.array(messagesToolSchema)),
  tool_choice: z.optional(messagesToolChoiceSchema),
  thinking: z.optional(messagesThinkingConfigSchema),
  stream: z.optional(z.boolean()),
  ...messagesPassThroughShape,
});
export type MessagesRequestWire = z.infer<typeof messagesRequestSchema>;

const tokens = z.number().check(z.int()).check(z.gte(0));

/** The full usage object; every field but the two counts is optional on input. */
export const messagesUsageSchema = zObject({
  input_tokens: tokens,
  output_tokens: tokens,
  cache_creation_input_tokens: opt(tokens),
  cache_read_input_tokens: opt(tokens),
  cache_creation: opt(
    zObject({
      ephemeral_5m_input_tokens: z.optional(tokens),
      ephemeral_1h_input_tokens: z.optional(tokens),
    }),
  ),
  service_tier: opt(z.string()),
  inference_geo: opt(z.string()),
  output_tokens_details: opt(zObject({ thinking_tokens: z.optional(tokens) })),
});
export type MessagesUsageWire = z.infer<typeof messagesUsageSchema>;

/** Response content blocks: the request block schemas minus cache_control semantics. */
export const messagesResponseBlockSchema = z.discriminatedUnion("type", [
  messagesTextBlockSchema,
  messagesToolUseBlockSchema,
  messagesThinkingBlockSchema,
  messagesRedactedThinkingBlockSchema,
]);
export type MessagesResponseBlock = z.infer<typeof messagesResponseBlockSchema>;
export const messagesResponseBlockTypes: ReadonlySet<string> = new Set(
  messagesResponseBlockSchema.def.options.map((o) => o.shape.type.def.values[0] as string),
);

/**
 * A block type Anthropic added that this codec does not model (server_tool_use,
 * web_search_tool_result, ...): accepted and ignored, as docs/api-reference.md asks of parsers.
 */
export const messagesUnknownBlockSchema = zLooseObject({ type: z.string() });
export type MessagesUnknownBlock = z.infer<typeof messagesUnknownBlockSchema>;

const responseBlockByType = new Map<string, z.ZodMiniType<MessagesResponseBlock>>(
  messagesResponseBlockSchema.def.options.map((o) => [o.shape.type.def.values[0] as string, o]),
);

/**
 * One response content block: a known type is validated by its own schema (a malformed known
 * block is an error naming its field, never mistaken for an unknown one); any other type passes.
 */
export const messagesResponseContentSchema = z.pipe(
  messagesUnknownBlockSchema,
  z.transform((block, ctx): MessagesResponseBlock | MessagesUnknownBlock => {
    const schema = responseBlockByType.get(block.type);
    if (!schema) return block;
    const parsed = schema.safeParse(block);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      ctx.issues.push({
        code: "custom",
        message: issue.message,
        path: issue.path as PropertyKey[],
        input: block,
      });
    }
    return z.NEVER;
  }),
);

export const isKnownResponseBlock = (
  block: MessagesResponseBlock | MessagesUnknownBlock,
): block is MessagesResponseBlock => messagesResponseBlockTypes.has(block.type);

export const messagesResponseSchema = zObject({
  id: z.string(),
  type: z.optional(z.literal("message")),
  role: z.optional(z.literal("assistant")),
  model: z.string(),
  content: z.array(messagesResponseContentSchema),
  stop_reason: opt(z.string()),
  stop_sequence: opt(z.string()),
  /** Structured detail of a refusal (`{type: "refusal", category, explanation, ...}`). */
  stop_details: opt(z.record(z.string(), z.unknown())),
  usage: messagesUsageSchema,
});
export type MessagesResponseWire = z.infer<typeof messagesResponseSchema>;

/** An upstream's reply as read: its usage may be absent, missing or set aside as malformed. */
export const messagesReplySchema = z.extend(messagesResponseSchema, {
  usage: z.optional(messagesUsageSchema),
});

/** The client-facing result, exactly the fields of docs/api-reference.md's "Messages-format result" table. */
export interface MessagesResultWire {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: MessagesResponseBlockOut[];
  stop_reason: string | null;
  stop_sequence: string | null;
  stop_details: Record<string, unknown> | null;
  usage: MessagesUsageOut;
}

export type MessagesResponseBlockOut =
  | MessagesCitedTextBlock
  | {
      type: "tool_use";
      id: string;
      name: string;
      input: Record<string, unknown>;
      /** Anthropic's SDK types require it; a translated call is always the model's own. */
      caller: { type: "direct" };
    }
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: string };

export interface MessagesUsageOut {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  service_tier: string;
  inference_geo: string;
  output_tokens_details?: { thinking_tokens: number };
}

/** message_delta's usage: the counts only (Anthropic's MessageDeltaUsage has no tier or split). */
export type MessagesDeltaUsageOut = Pick<
  MessagesUsageOut,
  | "input_tokens"
  | "output_tokens"
  | "cache_creation_input_tokens"
  | "cache_read_input_tokens"
  | "output_tokens_details"
>;
