import { MAX_TOP_LOGPROBS, zLooseObject, zObject } from "@interlingua/core-types";
import * as z from "zod/mini";
import { nativeGroundingMetadataSchema } from "./native-grounding.js";
import { nativeGenerationPassThroughShape } from "./native-request-fields.js";

/**
 * Zod schemas of the generate-content wire format (Gemini `generateContent`), camelCase as Gemini
 * documents it. Parsers first rewrite the snake_case spellings real clients send
 * (`native-aliases.ts`), then validate with these. Objects that carry fields we do not interpret
 * are loose so that the parser can keep those fields as extras.
 */

const json = z.record(z.string(), z.unknown());

export const nativeCacheControlSchema = zObject({
  type: z.literal("ephemeral"),
  ttl: z.optional(z.enum(["5m", "1h"])),
});

export const nativeInlineDataSchema = zObject({ mimeType: z.string(), data: z.string() });
export const nativeFileDataSchema = zObject({
  mimeType: z.optional(z.string()),
  fileUri: z.string(),
});

/** One value of a streamed function-call argument (Gemini 3 `streamFunctionCallArguments`). */
export const nativePartialArgSchema = zObject({
  jsonPath: z.string(),
  stringValue: z.optional(z.string()),
  numberValue: z.optional(z.number()),
  boolValue: z.optional(z.boolean()),
  nullValue: z.optional(z.unknown()),
  willContinue: z.optional(z.boolean()),
});

export const nativeFunctionCallSchema = zObject({
  name: z.string().check(z.minLength(1)),
  args: z.optional(json),
  id: z.optional(z.string()),
});

export const nativeFunctionResponsePartSchema = zObject({
  inlineData: z.optional(nativeInlineDataSchema),
  fileData: z.optional(nativeFileDataSchema),
});

export const nativeFunctionResponseSchema = zObject({
  name: z.string().check(z.minLength(1)),
  response: z.optional(json),
  id: z.optional(z.string()),
  /** Multimodal function responses (Gemini 3): images that belong to the result. */
  parts: z.optional(z.array(nativeFunctionResponsePartSchema)),
});

/** Code the model ran with the code-execution tool, and what running it gave. */
export const nativeExecutableCodeSchema = zLooseObject({
  language: z.optional(z.string()),
  code: z.string(),
});
export const nativeCodeExecutionResultSchema = zLooseObject({
  outcome: z.optional(z.string()),
  output: z.optional(z.string()),
});

/** A part carries exactly one data field; the converters check that, this schema types them. */
export const nativePartSchema = zObject({
  text: z.optional(z.string()),
  thought: z.optional(z.boolean()),
  thoughtSignature: z.optional(z.string()),
  inlineData: z.optional(nativeInlineDataSchema),
  fileData: z.optional(nativeFileDataSchema),
  functionCall: z.optional(nativeFunctionCallSchema),
  functionResponse: z.optional(nativeFunctionResponseSchema),
  executableCode: z.optional(nativeExecutableCodeSchema),
  codeExecutionResult: z.optional(nativeCodeExecutionResultSchema),
  cache_control: z.optional(nativeCacheControlSchema),
});

export const nativeRoleSchema = z.enum(["user", "model", "function"]);

export const nativeContentSchema = zObject({
  role: z.optional(nativeRoleSchema),
  parts: z.array(nativePartSchema),
});

export const nativeSystemInstructionSchema = zObject({
  role: z.optional(z.string()),
  /** Text only; a cache_control here is ignored (the API reference: never inside systemInstruction). */
  parts: z.array(
    zObject({
      text: z.string(),
      thoughtSignature: z.optional(z.string()),
    }),
  ),
});

export const nativeThinkingLevels = ["minimal", "low", "medium", "high"] as const;

export const nativeThinkingConfigSchema = zObject({
  thinkingBudget: z.optional(z.number().check(z.int()).check(z.gte(-1))),
  includeThoughts: z.optional(z.boolean()),
  /** Gemini documents lowercase values; the uppercase enum names are accepted too. */
  thinkingLevel: z.optional(
    z.pipe(
      z.pipe(
        z.string(),
        z.transform((s) => s.toLowerCase()),
      ),
      z.enum(nativeThinkingLevels),
    ),
  ),
});

export const nativeGenerationConfigSchema = zLooseObject({
  temperature: z.optional(z.number().check(z.gte(0)).check(z.lte(2))),
  topP: z.optional(z.number().check(z.gte(0)).check(z.lte(1))),
  topK: z.optional(z.number().check(z.int()).check(z.nonnegative())),
  maxOutputTokens: z.optional(z.number().check(z.int()).check(z.positive())),
  stopSequences: z.optional(z.array(z.string())),
  candidateCount: z.optional(z.number().check(z.int()).check(z.positive())),
  seed: z.optional(z.number().check(z.int())),
  presencePenalty: z.optional(z.number().check(z.gte(-2)).check(z.lte(2))),
  frequencyPenalty: z.optional(z.number().check(z.gte(-2)).check(z.lte(2))),
  responseMimeType: z.optional(z.string()),
  responseSchema: z.optional(json),
  responseJsonSchema: z.optional(json),
  thinkingConfig: z.optional(nativeThinkingConfigSchema),
  /** Return the chosen tokens' log probabilities (candidates[].logprobsResult). */
  responseLogprobs: z.optional(z.boolean()),
  /** Alternatives per decoding step in logprobsResult.topCandidates. */
  logprobs: z.optional(z.int().check(z.gte(0)).check(z.lte(MAX_TOP_LOGPROBS))),
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

export const nativeSafetySettingSchema = zObject({
  category: z.string().check(z.regex(/^HARM_CATEGORY_[A-Z_]+$/, "must be a HARM_CATEGORY_* value")),
  threshold: z.enum(nativeHarmThresholds),
});

export const nativeFunctionDeclarationSchema = zLooseObject({
  name: z.string().check(z.minLength(1)),
  description: z.optional(z.string()),
  parameters: z.optional(json),
  parametersJsonSchema: z.optional(json),
});

/** A tool entry; every key other than functionDeclarations is one built-in tool (an object). */
export const nativeToolSchema = z.catchall(
  zObject({ functionDeclarations: z.optional(z.array(nativeFunctionDeclarationSchema)) }),
  z.unknown(),
);

export const nativeFunctionCallingModes = [
  "AUTO",
  "ANY",
  "NONE",
  "VALIDATED",
  "MODE_UNSPECIFIED",
] as const;

export const nativeFunctionCallingConfigSchema = zLooseObject({
  mode: z.optional(z.enum(nativeFunctionCallingModes)),
  allowedFunctionNames: z.optional(z.array(z.string())),
});

export const nativeToolConfigSchema = zLooseObject({
  functionCallingConfig: z.optional(nativeFunctionCallingConfigSchema),
});

const nativeRequestBodyShape = {
  contents: z.array(nativeContentSchema).check(z.minLength(1)),
  systemInstruction: z.optional(nativeSystemInstructionSchema),
  generationConfig: z.optional(nativeGenerationConfigSchema),
  safetySettings: z.optional(z.array(nativeSafetySettingSchema)),
  tools: z.optional(z.array(nativeToolSchema)),
  toolConfig: z.optional(nativeToolConfigSchema),
  cachedContent: z.optional(z.string()),
};

export const nativeRequestSchema = zLooseObject({
  /** Not part of Gemini's body (the model is in the URL path); accepted for convenience. */
  model: z.optional(z.string().check(z.minLength(1))),
  ...nativeRequestBodyShape,
});

const nativeRequestBodySchema = zLooseObject(nativeRequestBodyShape);

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

export const nativeSafetyRatingSchema = zObject({
  category: z.string().check(z.minLength(1)),
  probability: z.enum(nativeHarmProbabilities),
  blocked: z.optional(z.boolean()),
});

export const nativePromptFeedbackSchema = zObject({
  blockReason: z.optional(z.string()),
  safetyRatings: z.optional(z.array(nativeSafetyRatingSchema)),
});

const tokens = z.number().check(z.int()).check(z.nonnegative());

export const nativeUsageMetadataSchema = zObject({
  promptTokenCount: z.optional(tokens),
  candidatesTokenCount: z.optional(tokens),
  totalTokenCount: z.optional(tokens),
  thoughtsTokenCount: z.optional(tokens),
  cachedContentTokenCount: z.optional(tokens),
  /** proto3 omits a zero tokenCount, so it is optional here. */
  promptTokensDetails: z.optional(
    z.array(zObject({ modality: z.string(), tokenCount: z.optional(tokens) })),
  ),
  serviceTier: z.optional(z.string()),
});

export const nativeCandidateSchema = zObject({
  content: z.optional(
    zObject({
      role: z.optional(z.string()),
      parts: z.optional(z.array(nativePartSchema)),
    }),
  ),
  finishReason: z.optional(z.string()),
  finishMessage: z.optional(z.string()),
  index: z.optional(z.number().check(z.int()).check(z.nonnegative())),
  safetyRatings: z.optional(z.array(nativeSafetyRatingSchema)),
  /** Search grounding: sources and the text segments they support (native-grounding.ts). */
  groundingMetadata: z.optional(nativeGroundingMetadataSchema),
  /** Recitation sources; not carried (reported). */
  citationMetadata: z.optional(z.unknown()),
  /** Token log probabilities (native-logprobs.ts); read leniently, never a failed reply. */
  logprobsResult: z.optional(z.unknown()),
  avgLogprobs: z.optional(z.number()),
});

export const nativeResponseSchema = zLooseObject({
  candidates: z.optional(z.array(nativeCandidateSchema)),
  promptFeedback: z.optional(nativePromptFeedbackSchema),
  usageMetadata: z.optional(nativeUsageMetadataSchema),
  modelVersion: z.optional(z.string()),
  responseId: z.optional(z.string()),
  /** Vertex's creation time (RFC 3339); the Gemini API sends none. */
  createTime: z.optional(z.string()),
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
export const nativeErrorBodySchema = zObject({
  error: zObject({
    code: z.number().check(z.int()),
    message: z.string(),
    status: z.optional(z.string()),
  }),
});
export type NativeErrorBody = z.infer<typeof nativeErrorBodySchema>;
