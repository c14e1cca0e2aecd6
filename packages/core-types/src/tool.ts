import * as z from "zod/mini";
import { cacheControlSchema } from "./cache-control.js";
import { jsonObjectSchema } from "./json-value.js";
import { zObject } from "./zod-object.js";

export const functionToolSchema = zObject({
  type: z.literal("function"),
  name: z.string().check(z.minLength(1)),
  description: z.exactOptional(z.string()),
  /** JSON Schema of the arguments object, carried as given; upstream-specific sanitising is the codec's. */
  parameters: jsonObjectSchema,
  strict: z.exactOptional(z.boolean()),
  cacheControl: z.exactOptional(cacheControlSchema),
});
export type FunctionTool = z.infer<typeof functionToolSchema>;

export const webSearchToolSchema = zObject({
  type: z.literal("web_search"),
  options: z.exactOptional(jsonObjectSchema),
});
export type WebSearchTool = z.infer<typeof webSearchToolSchema>;

export const fileSearchToolSchema = zObject({
  type: z.literal("file_search"),
  options: z.exactOptional(jsonObjectSchema),
});
export type FileSearchTool = z.infer<typeof fileSearchToolSchema>;

export const remoteMcpToolSchema = zObject({
  type: z.literal("remote_mcp"),
  url: z.string().check(z.minLength(1)),
  authToken: z.exactOptional(z.string()),
  /** Seconds; the spec's default of 30 is applied by the parsers, so the canonical value is explicit. */
  timeout: z.number().check(z.positive()),
});
export type RemoteMcpTool = z.infer<typeof remoteMcpToolSchema>;

export const toolProviderSchema = z.enum(["openai", "anthropic", "gemini"]);
export type ToolProvider = z.infer<typeof toolProviderSchema>;

/**
 * A tool defined by one provider (Anthropic's computer_20241022, text_editor_20241022,
 * bash_20241022, Gemini's googleSearch, ...). Only that provider's protocol can express it.
 */
export const providerToolSchema = zObject({
  type: z.literal("provider"),
  provider: toolProviderSchema,
  name: z.string().check(z.minLength(1)),
  options: jsonObjectSchema,
});
export type ProviderTool = z.infer<typeof providerToolSchema>;

export const toolSchema = z.discriminatedUnion("type", [
  functionToolSchema,
  webSearchToolSchema,
  fileSearchToolSchema,
  remoteMcpToolSchema,
  providerToolSchema,
]);
export type Tool = z.infer<typeof toolSchema>;

/**
 * Names of the function tools the model may call, the tools list staying whole (OpenAI
 * `allowed_tools`, Gemini `allowedFunctionNames`). Absent: every tool.
 */
const allowedToolsSchema = z.exactOptional(
  z.array(z.string().check(z.minLength(1))).check(z.minLength(1)),
);

export const toolChoiceSchema = z.discriminatedUnion("type", [
  zObject({ type: z.literal("auto"), allowed: allowedToolsSchema }),
  zObject({ type: z.literal("none") }),
  /** The model must call some tool (OpenAI "required", Anthropic "any", Gemini mode ANY). */
  zObject({ type: z.literal("required"), allowed: allowedToolsSchema }),
  zObject({ type: z.literal("tool"), name: z.string().check(z.minLength(1)) }),
]);
export type ToolChoice = z.infer<typeof toolChoiceSchema>;
