import * as z from "zod/mini";
import { cacheControlSchema } from "./cache-control.js";
import { zObject } from "./zod-object.js";

/**
 * Content parts: the smallest units of a message. Every wire format's block, part or item maps to
 * one of these. `signature` fields carry opaque provider tokens byte for byte (Anthropic thinking
 * signatures, Gemini thoughtSignature); they are never invented.
 */
/**
 * A source the model cited for (part of) a text part. `startIndex`/`endIndex` are UTF-16 code-unit
 * offsets into that part's `text` (OpenAI `url_citation` semantics, end exclusive); absent, the
 * citation covers the whole part (Anthropic attaches citations to a text block). Codecs shift the
 * offsets when they join parts and convert from other units (Gemini's UTF-8 byte segments).
 */
export const citationSchema = zObject({
  type: z.literal("url"),
  url: z.string(),
  title: z.exactOptional(z.string()),
  startIndex: z.exactOptional(z.int().check(z.nonnegative())),
  endIndex: z.exactOptional(z.int().check(z.nonnegative())),
  /** The quoted source text, when the format gives it (Anthropic `cited_text`). */
  citedText: z.exactOptional(z.string()),
});
export type Citation = z.infer<typeof citationSchema>;

export const textPartSchema = zObject({
  type: z.literal("text"),
  text: z.string(),
  /** Sources for this text (web-search results, grounding); see `citationSchema`. */
  citations: z.exactOptional(z.array(citationSchema)),
  cacheControl: z.exactOptional(cacheControlSchema),
  /** Gemini attaches thoughtSignature to text parts too; it must come back unchanged. */
  signature: z.exactOptional(z.string()),
});
export type TextPart = z.infer<typeof textPartSchema>;

export const imageSourceSchema = z.discriminatedUnion("type", [
  zObject({ type: z.literal("url"), url: z.string() }),
  zObject({ type: z.literal("base64"), mediaType: z.string(), data: z.string() }),
]);
export type ImageSource = z.infer<typeof imageSourceSchema>;

export const imagePartSchema = zObject({
  type: z.literal("image"),
  source: imageSourceSchema,
  detail: z.exactOptional(z.enum(["auto", "low", "high"])),
  cacheControl: z.exactOptional(cacheControlSchema),
});
export type ImagePart = z.infer<typeof imagePartSchema>;

export const fileSourceSchema = z.discriminatedUnion("type", [
  zObject({ type: z.literal("url"), url: z.string(), mediaType: z.exactOptional(z.string()) }),
  zObject({ type: z.literal("base64"), mediaType: z.string(), data: z.string() }),
  zObject({ type: z.literal("file-id"), fileId: z.string() }),
]);
export type FileSource = z.infer<typeof fileSourceSchema>;

export const filePartSchema = zObject({
  type: z.literal("file"),
  source: fileSourceSchema,
  filename: z.exactOptional(z.string()),
  /** Anthropic document `context`: text about the document the model may use but not cite. */
  context: z.exactOptional(z.string()),
  /** Anthropic document `citations.enabled`: whether answers may cite this document. */
  citations: z.exactOptional(z.boolean()),
  cacheControl: z.exactOptional(cacheControlSchema),
});
export type FilePart = z.infer<typeof filePartSchema>;

export const toolCallPartSchema = zObject({
  type: z.literal("tool-call"),
  id: z.string(),
  name: z.string(),
  /** JSON-encoded arguments exactly as the model produced them ("{}" for no arguments). */
  arguments: z.string(),
  /** OpenAI Responses `namespace` tools: the call's namespace; `name` is the name inside it. */
  namespace: z.exactOptional(z.string().check(z.minLength(1))),
  /** A call of a custom (free-form) tool: `arguments` is its raw input text, not JSON. */
  custom: z.exactOptional(z.literal(true)),
  signature: z.exactOptional(z.string()),
  cacheControl: z.exactOptional(cacheControlSchema),
});
export type ToolCallPart = z.infer<typeof toolCallPartSchema>;

export const toolResultContentSchema = z.discriminatedUnion("type", [
  textPartSchema,
  imagePartSchema,
]);
export type ToolResultContent = z.infer<typeof toolResultContentSchema>;

export const toolResultPartSchema = zObject({
  type: z.literal("tool-result"),
  toolCallId: z.string(),
  /** The called tool's name; Gemini matches results by name, so formats that know it keep it. */
  name: z.exactOptional(z.string()),
  content: z.array(toolResultContentSchema),
  isError: z.exactOptional(z.boolean()),
  cacheControl: z.exactOptional(cacheControlSchema),
});
export type ToolResultPart = z.infer<typeof toolResultPartSchema>;

export const thinkingPartSchema = zObject({
  type: z.literal("thinking"),
  text: z.string(),
  signature: z.exactOptional(z.string()),
});
export type ThinkingPart = z.infer<typeof thinkingPartSchema>;

export const redactedThinkingPartSchema = zObject({
  type: z.literal("redacted-thinking"),
  data: z.string(),
});
export type RedactedThinkingPart = z.infer<typeof redactedThinkingPartSchema>;

export const userPartSchema = z.discriminatedUnion("type", [
  textPartSchema,
  imagePartSchema,
  filePartSchema,
]);
export type UserPart = z.infer<typeof userPartSchema>;

export const assistantPartSchema = z.discriminatedUnion("type", [
  textPartSchema,
  imagePartSchema,
  filePartSchema,
  toolCallPartSchema,
  thinkingPartSchema,
  redactedThinkingPartSchema,
]);
export type AssistantPart = z.infer<typeof assistantPartSchema>;

export const partSchema = z.discriminatedUnion("type", [
  textPartSchema,
  imagePartSchema,
  filePartSchema,
  toolCallPartSchema,
  toolResultPartSchema,
  thinkingPartSchema,
  redactedThinkingPartSchema,
]);
export type Part = z.infer<typeof partSchema>;
export type PartType = Part["type"];
