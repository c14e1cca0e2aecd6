import { MAX_TOP_LOGPROBS, zLooseObject } from "@interlingua/core-types";
import { FIELD_REQUIRED } from "@interlingua/errors";
import * as z from "zod/mini";
import {
  imageUrlRule,
  isValidImageUrl,
  MAX_INLINE_IMAGE_BYTES,
  oversizedInlineImage,
} from "./image-url.js";
import { responsesPassThroughShape } from "./responses-request-fields.js";

/**
 * Wire schemas of docs/api-reference.md's `POST /v1/responses`: the request body and the `data` of the result.
 * Objects are loose: real clients send fields the spec does not show (`id`, `status` on replayed
 * items, `annotations` on output text); the top-level ones are kept in `extras.responses`, the
 * nested ones are ignored.
 */
const jsonObject = z.record(z.string(), z.unknown());

export const inputTextBlockSchema = zLooseObject({
  type: z.literal("input_text"),
  text: z.string(),
});
export const inputImageBlockSchema = zLooseObject({
  type: z.literal("input_image"),
  image_url: z.string().check(
    z.refine(isValidImageUrl, imageUrlRule),
    z.superRefine((value, ctx) => {
      const bytes = oversizedInlineImage(value);
      if (bytes === undefined) return;
      ctx.addIssue({
        code: "custom",
        input: value,
        message: `the image is ${bytes} bytes, more than an image in a responses request may be (${MAX_INLINE_IMAGE_BYTES}, 20 MB)`,
      });
    }),
  ),
  /** Not in the spec; OpenAI's Responses convention, carried as the canonical `detail`. */
  detail: z.optional(z.enum(["auto", "low", "high"])),
});
/**
 * A file (OpenAI's Responses `input_file`): inline `file_data` (a data URL, or base64 whose type
 * the filename's extension gives), a `file_url` the gateway fetches, or a `file_id`; one of them.
 */
export const inputFileBlockSchema = zLooseObject({
  type: z.literal("input_file"),
  file_data: z.optional(z.string().check(z.minLength(1))),
  file_url: z.optional(z.string().check(z.minLength(1))),
  file_id: z.optional(z.string().check(z.minLength(1))),
  filename: z.optional(z.string()),
}).check(
  z.superRefine((block, ctx) => {
    const given = [block.file_data, block.file_url, block.file_id].filter((v) => v !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({
        code: "custom",
        path: ["file_data"],
        message: "give exactly one of file_data, file_url or file_id",
      });
    }
  }),
);
/** Assistant history as the Responses API returns it; `input_text` is accepted there too. */
export const outputTextBlockSchema = zLooseObject({
  type: z.literal("output_text"),
  text: z.string(),
});

const messageType = z.optional(z.literal("message"));

export const userItemSchema = zLooseObject({
  type: messageType,
  role: z.literal("user"),
  content: z.union([
    z.string(),
    z.array(
      z.discriminatedUnion("type", [
        inputTextBlockSchema,
        inputImageBlockSchema,
        inputFileBlockSchema,
      ]),
    ),
  ]),
});
/** docs/api-reference.md's "the service" role is `system`; OpenAI's `developer` means the same here. */
export const systemItemSchema = zLooseObject({
  type: messageType,
  role: z.enum(["system", "developer"]),
  content: z.union([z.string(), z.array(inputTextBlockSchema)]),
});
export const assistantItemSchema = zLooseObject({
  type: messageType,
  role: z.literal("assistant"),
  content: z.union([
    z.string(),
    z.array(z.discriminatedUnion("type", [outputTextBlockSchema, inputTextBlockSchema])),
  ]),
});
export const messageItemSchema = z.discriminatedUnion("role", [
  userItemSchema,
  systemItemSchema,
  assistantItemSchema,
]);

/** A call the model made, replayed by the client (OpenAI Responses convention). */
export const functionCallItemSchema = zLooseObject({
  type: z.literal("function_call"),
  call_id: z.string().check(z.minLength(1)),
  name: z.string().check(z.minLength(1)),
  arguments: z.string(),
  /** Set when the function is one of a `namespace` tool's. */
  namespace: z.nullish(z.string()),
});
/** A call of a `custom` (free-form input) tool, replayed: `input` is raw text. */
export const customToolCallItemSchema = zLooseObject({
  type: z.literal("custom_tool_call"),
  call_id: z.string().check(z.minLength(1)),
  name: z.string().check(z.minLength(1)),
  input: z.string(),
});
/** The client's result of running a call (the API reference: "sends the result back in a follow-up request"). */
export const functionCallOutputItemSchema = zLooseObject({
  type: z.literal("function_call_output"),
  call_id: z.string().check(z.minLength(1)),
  output: z.union([
    z.string(),
    z.array(z.discriminatedUnion("type", [inputTextBlockSchema, inputImageBlockSchema])),
  ]),
});
/** The client's result of a custom tool call. */
export const customToolCallOutputItemSchema = zLooseObject({
  type: z.literal("custom_tool_call_output"),
  call_id: z.string().check(z.minLength(1)),
  output: z.union([
    z.string(),
    z.array(z.discriminatedUnion("type", [inputTextBlockSchema, inputImageBlockSchema])),
  ]),
});
export const summaryTextSchema = zLooseObject({
  type: z.literal("summary_text"),
  text: z.string(),
});
/** Reasoning replayed by the client; `encrypted_content` is opaque and kept byte for byte. */
export const reasoningItemSchema = zLooseObject({
  type: z.literal("reasoning"),
  summary: z.array(summaryTextSchema),
  encrypted_content: z.nullish(z.string()),
});

export const inputItemSchema = z.discriminatedUnion("type", [
  messageItemSchema,
  functionCallItemSchema,
  functionCallOutputItemSchema,
  customToolCallItemSchema,
  customToolCallOutputItemSchema,
  reasoningItemSchema,
]);

export const functionDefinitionSchema = zLooseObject({
  name: z.string().check(z.minLength(1)),
  description: z.string(),
  parameters: z.nullish(jsonObject),
  strict: z.nullish(z.boolean()),
});

/**
 * A function tool in the spec's nested shape `{type, function: {...}}`, or OpenAI's flat
 * Responses shape `{type, name, description?, parameters, strict?}`. The nested shape needs a
 * description (the spec marks it required); the flat one takes what OpenAI takes: no description,
 * `strict: null` (LangChain's `bindTools` sends both). The error names the field in the shape the
 * client used.
 */
export const functionToolSchema = zLooseObject({
  type: z.literal("function"),
  function: z.optional(functionDefinitionSchema),
  name: z.optional(z.string().check(z.minLength(1))),
  description: z.nullish(z.string()),
  parameters: z.nullish(jsonObject),
  strict: z.nullish(z.boolean()),
}).check(
  z.superRefine((tool, ctx) => {
    if (tool.function !== undefined) return;
    if (tool.name === undefined) {
      ctx.addIssue({ code: "custom", path: ["function"], message: FIELD_REQUIRED });
    }
  }),
);
/** Hosted tools: the spec shows only `type`; any other field is an option carried as given. */
export const webSearchToolSchema = zLooseObject({ type: z.literal("web_search") });
export const fileSearchToolSchema = zLooseObject({ type: z.literal("file_search") });
export const remoteMcpToolSchema = zLooseObject({
  type: z.literal("remote_mcp"),
  remote_mcp: zLooseObject({
    url: z.string().check(z.minLength(1)),
    auth_token: z.optional(z.string()),
    /** Seconds; the spec's default of 30 is made explicit on parse. */
    timeout: z.optional(z.number().check(z.positive())),
  }),
});
export const knownToolTypes: ReadonlySet<string> = new Set([
  "function",
  "web_search",
  "file_search",
  "remote_mcp",
]);
/**
 * Any other tool OpenAI's Responses API takes (`custom`, `namespace`, `tool_search`, hosted tools
 * added later): not refused, carried whole toward the Responses API, lowered or reported elsewhere.
 */
export const openAiToolSchema = zLooseObject({
  type: z
    .string()
    .check(z.minLength(1))
    .check(z.refine((type) => !knownToolTypes.has(type))),
});
export const knownToolSchema = z.discriminatedUnion("type", [
  functionToolSchema,
  webSearchToolSchema,
  fileSearchToolSchema,
  remoteMcpToolSchema,
]);
/**
 * A tool: one of the four the spec shows, validated as such (errors name their fields), or any
 * other type, taken as given. A union would blur the known tools' errors, so the known schema
 * runs only on a known type.
 */
export const toolSchema = zLooseObject({ type: z.string().check(z.minLength(1)) }).check(
  z.superRefine((tool, ctx) => {
    if (!knownToolTypes.has(tool.type)) return;
    const known = knownToolSchema.safeParse(tool);
    if (!known.success) for (const issue of known.error.issues) ctx.addIssue({ ...issue });
  }),
) as unknown as z.ZodMiniType<ResponsesKnownTool | ResponsesOpenAiTool>;

export const toolChoiceSchema = z.union(
  [
    z.enum(["auto", "none", "required"]),
    z
      .looseObject({
        type: z.literal("function"),
        name: z.optional(z.string().check(z.minLength(1))),
        /** The chat-completions spelling, accepted because clients port their code. */
        function: z.optional(zLooseObject({ name: z.string().check(z.minLength(1)) })),
      })
      .check(
        z.refine((choice) => choice.name !== undefined || choice.function !== undefined, {
          message: "a function tool choice needs name",
          path: ["name"],
        }),
      ),
    /** `allowed_tools`, `custom`, a hosted tool's type, and kinds OpenAI adds later. */
    zLooseObject({
      type: z
        .string()
        .check(z.minLength(1))
        .check(z.refine((type) => type !== "function")),
    }),
  ],
  { error: 'must be "auto", "none", "required" or {"type": "function", "name": ...}' },
);

/** Efforts the canonical model holds; any other (`xhigh`, later ones) is carried as given. */
export const knownReasoningEfforts = ["none", "minimal", "low", "medium", "high"] as const;
export const reasoningEffortSchema = z.string().check(z.minLength(1));
export const reasoningSchema = zLooseObject({
  effort: z.nullish(reasoningEffortSchema),
  summary: z.nullish(z.enum(["auto", "concise", "detailed"])),
});

export const textFormatSchema = z.discriminatedUnion("type", [
  zLooseObject({ type: z.literal("text") }),
  zLooseObject({ type: z.literal("json_object") }),
  zLooseObject({
    type: z.literal("json_schema"),
    name: z.optional(z.string()),
    schema: jsonObject,
    strict: z.nullish(z.boolean()),
  }),
]);
export const textConfigSchema = zLooseObject({ format: z.optional(textFormatSchema) });

export const interlinguaResponsesRequestSchema = zLooseObject({
  model: z.string().check(z.minLength(1)),
  input: z.union([z.string(), z.array(inputItemSchema)], {
    error: (issue) =>
      issue.input === undefined ? FIELD_REQUIRED : "must be a string or an array of input items",
  }),
  instructions: z.nullish(z.string()),
  temperature: z.nullish(z.number().check(z.gte(0)).check(z.lte(2))),
  top_p: z.nullish(z.number().check(z.gte(0)).check(z.lte(1))),
  /** The spec's name; OpenAI's `max_output_tokens` is accepted as an alias. */
  max_tokens: z.nullish(z.int().check(z.positive())),
  max_output_tokens: z.nullish(z.int().check(z.positive())),
  stream: z.nullish(z.boolean()),
  tools: z.nullish(z.array(toolSchema)),
  tool_choice: z.nullish(toolChoiceSchema),
  parallel_tool_calls: z.nullish(z.boolean()),
  reasoning: z.nullish(reasoningSchema),
  text: z.nullish(textConfigSchema),
  user: z.nullish(z.string()),
  metadata: z.nullish(jsonObject),
  /** Alternatives per output token; the tokens themselves come with `include` (logprobs). */
  top_logprobs: z.nullish(z.int().check(z.gte(0)).check(z.lte(MAX_TOP_LOGPROBS))),
  ...responsesPassThroughShape,
});

export type ResponsesInputTextBlock = z.infer<typeof inputTextBlockSchema>;
export type ResponsesInputImageBlock = z.infer<typeof inputImageBlockSchema>;
export type ResponsesInputFileBlock = z.infer<typeof inputFileBlockSchema>;
export type ResponsesOutputTextBlock = z.infer<typeof outputTextBlockSchema>;
export type ResponsesUserItem = z.infer<typeof userItemSchema>;
export type ResponsesSystemItem = z.infer<typeof systemItemSchema>;
export type ResponsesAssistantItem = z.infer<typeof assistantItemSchema>;
export type ResponsesMessageItem = z.infer<typeof messageItemSchema>;
export type ResponsesFunctionCallItem = z.infer<typeof functionCallItemSchema>;
export type ResponsesFunctionCallOutputItem = z.infer<typeof functionCallOutputItemSchema>;
export type ResponsesReasoningItem = z.infer<typeof reasoningItemSchema>;
export type ResponsesInputItem = z.infer<typeof inputItemSchema>;
export type ResponsesFunctionTool = z.infer<typeof functionToolSchema>;
export type ResponsesKnownTool = z.infer<typeof knownToolSchema>;
export type ResponsesOpenAiTool = z.infer<typeof openAiToolSchema>;
export type ResponsesTool = ResponsesKnownTool | ResponsesOpenAiTool;
export const isKnownResponsesTool = (tool: ResponsesTool): tool is ResponsesKnownTool =>
  knownToolTypes.has(tool.type);
export type ResponsesToolChoice = z.infer<typeof toolChoiceSchema>;
export type ResponsesReasoning = z.infer<typeof reasoningSchema>;
export type ResponsesTextFormat = z.infer<typeof textFormatSchema>;
export type InterlinguaResponsesRequestWire = z.infer<typeof interlinguaResponsesRequestSchema>;

/** docs/api-reference.md "Responses-format result": the `data` of `POST /v1/responses`. */
export const resultToolCallSchema = zLooseObject({
  id: z.string(),
  type: z.literal("function"),
  function: zLooseObject({ name: z.string(), arguments: z.string() }),
});
export const resultFinishReasonValues = ["stop", "length", "content_filter", "tool_calls"] as const;
export const resultChoiceSchema = zLooseObject({
  index: z.int().check(z.nonnegative()),
  message: zLooseObject({
    role: z.literal("assistant"),
    content: z.nullable(z.string()),
    tool_calls: z.optional(z.array(resultToolCallSchema)),
  }),
  /** Values outside the spec's four are tolerated and read as `other`. */
  finish_reason: z.nullable(z.string()),
});
export const resultUsageSchema = zLooseObject({
  prompt_tokens: z.int().check(z.nonnegative()),
  completion_tokens: z.int().check(z.nonnegative()),
  total_tokens: z.int().check(z.nonnegative()),
});
export const interlinguaResponsesResultSchema = zLooseObject({
  id: z.string(),
  object: z.literal("response"),
  created: z.int().check(z.nonnegative()),
  model: z.string(),
  choices: z.array(resultChoiceSchema),
  usage: resultUsageSchema,
});

export type ResponsesResultToolCall = z.infer<typeof resultToolCallSchema>;
export type ResponsesResultChoice = z.infer<typeof resultChoiceSchema>;
export type ResponsesResultUsage = z.infer<typeof resultUsageSchema>;
export type InterlinguaResponsesResponseWire = z.infer<typeof interlinguaResponsesResultSchema>;
