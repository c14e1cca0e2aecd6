import * as z from "zod";
import { cacheControlSchema } from "./cache-control.js";
import { jsonObjectSchema } from "./json-value.js";

export const functionToolSchema = z.object({
  type: z.literal("function"),
  name: z.string().min(1),
  description: z.string().exactOptional(),
  /** JSON Schema of the arguments object, carried as given; upstream-specific sanitising is the codec's. */
  parameters: jsonObjectSchema,
  strict: z.boolean().exactOptional(),
  cacheControl: cacheControlSchema.exactOptional(),
});
export type FunctionTool = z.infer<typeof functionToolSchema>;

export const webSearchToolSchema = z.object({
  type: z.literal("web_search"),
  options: jsonObjectSchema.exactOptional(),
});
export type WebSearchTool = z.infer<typeof webSearchToolSchema>;

export const fileSearchToolSchema = z.object({
  type: z.literal("file_search"),
  options: jsonObjectSchema.exactOptional(),
});
export type FileSearchTool = z.infer<typeof fileSearchToolSchema>;

export const remoteMcpToolSchema = z.object({
  type: z.literal("remote_mcp"),
  url: z.string().min(1),
  authToken: z.string().exactOptional(),
  /** Seconds; the spec's default of 30 is applied by the parsers, so the canonical value is explicit. */
  timeout: z.number().positive(),
});
export type RemoteMcpTool = z.infer<typeof remoteMcpToolSchema>;

export const toolProviderSchema = z.enum(["openai", "anthropic", "gemini"]);
export type ToolProvider = z.infer<typeof toolProviderSchema>;

/**
 * A tool defined by one provider (Anthropic's computer_20241022, text_editor_20241022,
 * bash_20241022, Gemini's googleSearch, ...). Only that provider's protocol can express it.
 */
export const providerToolSchema = z.object({
  type: z.literal("provider"),
  provider: toolProviderSchema,
  name: z.string().min(1),
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

export const toolChoiceSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("auto") }),
  z.object({ type: z.literal("none") }),
  /** The model must call some tool (OpenAI "required", Anthropic "any", Gemini mode ANY). */
  z.object({ type: z.literal("required") }),
  z.object({ type: z.literal("tool"), name: z.string().min(1) }),
]);
export type ToolChoice = z.infer<typeof toolChoiceSchema>;
