import { MAX_TOP_LOGPROBS } from "@interlingua/core-types";
import * as z from "zod";
import { nativeGroundingMetadataSchema } from "./native-grounding.js";
import { nativeGenerationPassThroughShape } from "./native-request-fields.js";

/**
 * Zod schemas of the generate-content wire format (Gemini `generateContent`), camelCase as Gemini
 * documents it. Parsers first rewrite the snake_case spellings real clients send
 * (`native-aliases.ts`), then validate with these. Objects that carry fields we do not interpret
 * are loose so that the parser can keep those fields as extras.
 */

const json = z.record(z.string(), z.unknown());

export const nativeCacheControlSchema = z.object({
  type: z.literal("ephemeral"),
  ttl: z.enum(["5m", "1h"]).optional(),
});

export const nativeInlineDataSchema = z.object({ mimeType: z.string(), data: z.string() });
export const nativeFileDataSchema = z.object({
  mimeType: z.string().optional(),
  fileUri: z.string(),
});

/** One value of a streamed function-call argument (Gemini 3 `streamFunctionCallArguments`). */
export const nativePartialArgSchema = z.object({
  jsonPath: z.string(),
  stringValue: z.string().optional(),
  numberValue: z.number().optional(),
  boolValue: z.boolean().optional(),
  nullValue: z.unknown().optional(),
  willContinue: z.boolean().optional(),
});

export const nativeFunctionCallSchema = z.object({
  name: z.string().min(1),
  args: json.optional(),
  id: z.string().optional(),
});

export const nativeFunctionResponsePartSchema = z.object({
  inlineData: nativeInlineDataSchema.optional(),
  fileData: nativeFileDataSchema.optional(),
});

export const nativeFunctionResponseSchema = z.object({
  name: z.string().min(1),
  response: json.optional(),
  id: z.string().optional(),
  /** Multimodal function responses (Gemini 3): images that belong to the result. */
  parts: z.array(nativeFunctionResponsePartSchema).optional(),
});

/** Code the model ran with the code-execution tool, and what running it gave. */
export const nativeExecutableCodeSchema = z.looseObject({
  language: z.string().optional(),
  code: z.string(),
});
export const nativeCodeExecutionResultSchema = z.looseObject({
  outcome: z.string().optional(),
  output: z.string().optional(),
});

/** A part carries exactly one data field; the converters check that, this schema types them. */
export const nativePartSchema = z.object({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
  inlineData: nativeInlineDataSchema.optional(),
  fileData: nativeFileDataSchema.optional(),
  functionCall: nativeFunctionCallSchema.optional(),
  functionResponse: nativeFunctionResponseSchema.optional(),
  executableCode: nativeExecutableCodeSchema.optional(),
  codeExecutionResult: nativeCodeExecutionResultSchema.optional(),
  cache_control: nativeCacheControlSchema.optional(),
});

export const nativeRoleSchema = z.enum(["user", "model", "function"]);

export const nativeContentSchema = z.object({
  role: nativeRoleSchema.optional(),
  parts: z.array(nativePartSchema),
});

export const nativeSystemInstructionSchema = z.object({
  role: z.string().optional(),
  /** Text only; a cache_control here is ignored (the API reference: never inside systemInstruction). */
  parts: z.array(
    z.object({
      text: z.string(),
      thoughtSignature: z.string().optional(),
    }),
  ),
});

export const nativeThinkingLevels = ["minimal", "low", "medium", "high"] as const;

export const nativeThinkingConfigSchema = z.object({
  thinkingBudget: z.number().int().min(-1).optional(),
  includeThoughts: z.boolean().optional(),
  /** Gemini documents lowercase values; the uppercase enum names are accepted too. */
  thinkingLevel: z
    .string()
    .transform((s) => s.toLowerCase())
    .pipe(z.enum(nativeThinkingLevels))
    .optional(),
});

export const nativeGenerationConfigSchema = z.looseObject({
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().min(0).max(1).optional(),
  topK: z.number().int().nonnegative().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  stopSequences: z.array(z.string()).optional(),
  candidateCount: z.number().int().positive().optional(),
  seed: z.number().int().optional(),
  presencePenalty: z.number().min(-2).max(2).optional(),
  frequencyPenalty: z.number().min(-2).max(2).optional(),
  responseMimeType: z.string().optional(),
  responseSchema: json.optional(),
  responseJsonSchema: json.optional(),
  thinkingConfig: nativeThinkingConfigSchema.optional(),
  /** Return the chosen tokens' log probabilities (candidates[].logprobsResult). */
  responseLogprobs: z.boolean().optional(),
  /** Alternatives per decoding step in logprobsResult.topCandidates. */
  logprobs: z.int().min(0).max(MAX_TOP_LOGPROBS).optional(),
  ...nativeGenerationPassThroughShape,
});

/** The thresholds docs/api-reference.md lists, plus the two real values the upstream also accepts. */
export const nativeHarmThresholds = [
  "BLOCK_NONE",
  "BLOCK_ONLY_HIGH",
  "BLOCK_MEDIUM_AND_ABOVE",
  "BLOCK_LOW_AND_ABOVE",
  "HARM_BLOCK_THRESHOLD_UNSPECIFIED",
  "OFF",
] as const;

export const nativeSafetySettingSchema = z.object({
  category: z.string().regex(/^HARM_CATEGORY_[A-Z_]+$/, "must be a HARM_CATEGORY_* value"),
  threshold: z.enum(nativeHarmThresholds),
});

export const nativeFunctionDeclarationSchema = z.looseObject({
  name: z.string().min(1),
  description: z.string().optional(),
  parameters: json.optional(),
  parametersJsonSchema: json.optional(),
});

/** A tool entry; every key other than functionDeclarations is one built-in tool (an object). */
export const nativeToolSchema = z
  .object({ functionDeclarations: z.array(nativeFunctionDeclarationSchema).optional() })
  .catchall(z.unknown());

export const nativeFunctionCallingModes = [
  "AUTO",
  "ANY",
  "NONE",
  "VALIDATED",
  "MODE_UNSPECIFIED",
] as const;

export const nativeFunctionCallingConfigSchema = z.looseObject({
  mode: z.enum(nativeFunctionCallingModes).optional(),
  allowedFunctionNames: z.array(z.string()).optional(),
});

export const nativeToolConfigSchema = z.looseObject({
  functionCallingConfig: nativeFunctionCallingConfigSchema.optional(),
});

const nativeRequestBodyShape = {
  contents: z.array(nativeContentSchema).min(1),
  systemInstruction: nativeSystemInstructionSchema.optional(),
  generationConfig: nativeGenerationConfigSchema.optional(),
  safetySettings: z.array(nativeSafetySettingSchema).optional(),
  tools: z.array(nativeToolSchema).optional(),
  toolConfig: nativeToolConfigSchema.optional(),
  cachedContent: z.string().optional(),
};

export const nativeRequestSchema = z.looseObject({
  /** Not part of Gemini's body (the model is in the URL path); accepted for convenience. */
  model: z.string().min(1).optional(),
  ...nativeRequestBodyShape,
});

const nativeRequestBodySchema = z.looseObject(nativeRequestBodyShape);

export type NativeCacheControl = z.infer<typeof nativeCacheControlSchema>;
export type NativeInlineData = z.infer<typeof nativeInlineDataSchema>;
export type NativeFileData = z.infer<typeof nativeFileDataSchema>;
export type NativePartialArg = z.infer<typeof nativePartialArgSchema>;
export type NativeFunctionCall = z.infer<typeof nativeFunctionCallSchema>;
export type NativeFunctionResponse = z.infer<typeof nativeFunctionResponseSchema>;
export type NativePart = z.infer<typeof nativePartSchema>;
export type NativeRole = z.infer<typeof nativeRoleSchema>;
export type NativeContent = z.infer<typeof nativeContentSchema>;
export type NativeSystemInstruction = z.infer<typeof nativeSystemInstructionSchema>;
export type NativeThinkingConfig = z.infer<typeof nativeThinkingConfigSchema>;
export type NativeGenerationConfig = z.infer<typeof nativeGenerationConfigSchema>;
export type NativeSafetySetting = z.infer<typeof nativeSafetySettingSchema>;
export type NativeFunctionDeclaration = z.infer<typeof nativeFunctionDeclarationSchema>;
export type NativeTool = z.infer<typeof nativeToolSchema>;
export type NativeFunctionCallingConfig = z.infer<typeof nativeFunctionCallingConfigSchema>;
export type NativeToolConfig = z.infer<typeof nativeToolConfigSchema>;

/** The request body as rendered (`model` lives in the URL path, never in the rendered body). */
export type NativeRequestWire = z.infer<typeof nativeRequestBodySchema>;

// ---- responses -------------------------------------------------------------------------------

export const nativeHarmProbabilities = [
  "NEGLIGIBLE",
  "LOW",
  "MEDIUM",
  "HIGH",
  "HARM_PROBABILITY_UNSPECIFIED",
] as const;

export const nativeSafetyRatingSchema = z.object({
  category: z.string().min(1),
  probability: z.enum(nativeHarmProbabilities),
  blocked: z.boolean().optional(),
});

export const nativePromptFeedbackSchema = z.object({
  blockReason: z.string().optional(),
  safetyRatings: z.array(nativeSafetyRatingSchema).optional(),
});

const tokens = z.number().int().nonnegative();

export const nativeUsageMetadataSchema = z.object({
  promptTokenCount: tokens.optional(),
  candidatesTokenCount: tokens.optional(),
  totalTokenCount: tokens.optional(),
  thoughtsTokenCount: tokens.optional(),
  cachedContentTokenCount: tokens.optional(),
  /** proto3 omits a zero tokenCount, so it is optional here. */
  promptTokensDetails: z
    .array(z.object({ modality: z.string(), tokenCount: tokens.optional() }))
    .optional(),
  serviceTier: z.string().optional(),
});

export const nativeCandidateSchema = z.object({
  content: z
    .object({
      role: z.string().optional(),
      parts: z.array(nativePartSchema).optional(),
    })
    .optional(),
  finishReason: z.string().optional(),
  finishMessage: z.string().optional(),
  index: z.number().int().nonnegative().optional(),
  safetyRatings: z.array(nativeSafetyRatingSchema).optional(),
  /** Search grounding: sources and the text segments they support (native-grounding.ts). */
  groundingMetadata: nativeGroundingMetadataSchema.optional(),
  /** Recitation sources; not carried (reported). */
  citationMetadata: z.unknown().optional(),
  /** Token log probabilities (native-logprobs.ts); read leniently, never a failed reply. */
  logprobsResult: z.unknown().optional(),
  avgLogprobs: z.number().optional(),
});

export const nativeResponseSchema = z.looseObject({
  candidates: z.array(nativeCandidateSchema).optional(),
  promptFeedback: nativePromptFeedbackSchema.optional(),
  usageMetadata: nativeUsageMetadataSchema.optional(),
  modelVersion: z.string().optional(),
  responseId: z.string().optional(),
  /** Vertex's creation time (RFC 3339); the Gemini API sends none. */
  createTime: z.string().optional(),
});

export type NativeSafetyRating = z.infer<typeof nativeSafetyRatingSchema>;
export type NativePromptFeedback = z.infer<typeof nativePromptFeedbackSchema>;
export type NativeUsageMetadata = z.infer<typeof nativeUsageMetadataSchema>;
export type NativeCandidate = z.infer<typeof nativeCandidateSchema>;
export type NativeResponseWire = z.infer<typeof nativeResponseSchema>;

/** What a stream chunk's functionCall may hold: a whole call, or a fragment of a streamed one. */
export interface NativeStreamFunctionCall {
  name?: string;
  args?: Record<string, unknown>;
  id?: string;
  partialArgs?: NativePartialArg[];
  willContinue?: boolean;
}

/** The upstream's error body, also sent as an in-stream frame. */
export const nativeErrorBodySchema = z.object({
  error: z.object({
    code: z.number().int(),
    message: z.string(),
    status: z.string().optional(),
  }),
});
export type NativeErrorBody = z.infer<typeof nativeErrorBodySchema>;
