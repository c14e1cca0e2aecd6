import type { Request, RequestFieldTable } from "@interlingua/core-types";
import { zLooseObject } from "@interlingua/core-types";
import * as z from "zod/mini";
import { type NativeFunctionCalling, parseNativeToolChoice } from "./map-native-tool-choice.js";
import { readBookkeeping, readUnknownFields } from "./native-extras.js";

/**
 * generationConfig fields of Gemini's generateContent that the canonical model does not
 * interpret. Validated loosely here; the parser keeps them (bookkeeping) and sends them back as
 * they came to a Gemini upstream; toward any other protocol each is dropped with a warning.
 */
export const nativeGenerationPassThroughShape = {
  responseModalities: z.optional(z.array(z.string())),
  speechConfig: z.optional(zLooseObject({})),
  imageConfig: z.optional(zLooseObject({})),
  mediaResolution: z.optional(z.string()),
  enableEnhancedCivicAnswers: z.optional(z.boolean()),
  audioTimestamp: z.optional(z.boolean()),
  routingConfig: z.optional(zLooseObject({})),
};

/**
 * Every field of the native request schema (top level and generationConfig) and what happens to
 * it when the request goes to another protocol (core-types `RequestFieldAction`). A test walks
 * `nativeRequestSchema` against it.
 */
export const nativeRequestFields: RequestFieldTable = {
  model: "mapped",
  contents: "mapped",
  systemInstruction: "mapped",
  generationConfig: "mapped",
  "generationConfig.temperature": "mapped",
  "generationConfig.topP": "mapped",
  "generationConfig.topK": "mapped",
  "generationConfig.maxOutputTokens": "mapped",
  "generationConfig.stopSequences": "mapped",
  "generationConfig.candidateCount": "mapped",
  "generationConfig.seed": "mapped",
  "generationConfig.presencePenalty": "mapped",
  "generationConfig.frequencyPenalty": "mapped",
  "generationConfig.responseMimeType": "mapped",
  "generationConfig.responseSchema": "mapped",
  "generationConfig.responseJsonSchema": "mapped",
  "generationConfig.thinkingConfig": "mapped",
  "generationConfig.responseLogprobs": "mapped",
  "generationConfig.logprobs": "mapped",
  "generationConfig.responseModalities": "warned",
  "generationConfig.speechConfig": "warned",
  "generationConfig.imageConfig": "warned",
  "generationConfig.mediaResolution": "warned",
  "generationConfig.enableEnhancedCivicAnswers": "warned",
  "generationConfig.audioTimestamp": "warned",
  "generationConfig.routingConfig": "warned",
  safetySettings: "mapped",
  tools: "mapped",
  toolConfig: "mapped",
  cachedContent: "mapped",
};

/** Whether the canonical tool choice holds the config's allowedFunctionNames (as `allowed`). */
function carriesNames(calling: NativeFunctionCalling): boolean {
  const choice = parseNativeToolChoice(calling);
  return (
    choice?.type === "tool" ||
    ((choice?.type === "auto" || choice?.type === "required") && choice.allowed !== undefined)
  );
}

const under = (prefix: string, fields: Record<string, unknown> | undefined) =>
  Object.keys(fields ?? {}).map((key) => `${prefix}.${key}`);

/**
 * The client's native fields a request rendered for another protocol leaves behind, each a
 * `dropped` warning: unknown top-level fields, generationConfig and toolConfig fields the
 * canonical model does not hold, function-declaration extras, and a function-calling mode the
 * canonical tool choice cannot say. Shape hints of the bookkeeping are not fields and not listed.
 */
export function untranslatedNativeFields(request: Request): string[] {
  const book = readBookkeeping(request.extras);
  const paths = Object.keys(readUnknownFields(request.extras));
  paths.push(...under("generationConfig", book.generationConfig));
  paths.push(...under("toolConfig", book.toolConfig));
  paths.push(...under("toolConfig.functionCallingConfig", book.functionCallingConfig));
  if (book.functionCalling !== undefined) {
    paths.push("toolConfig.functionCallingConfig.mode");
    // Names the canonical choice does not carry (a mode that takes none) are lost too: named.
    if (
      book.functionCalling.allowedFunctionNames !== undefined &&
      !carriesNames(book.functionCalling)
    ) {
      paths.push("toolConfig.functionCallingConfig.allowedFunctionNames");
    }
  }
  const declared = new Set<string>();
  for (const fields of Object.values(book.declarations ?? {})) {
    for (const key of Object.keys(fields)) declared.add(`tools.functionDeclarations.${key}`);
  }
  paths.push(...declared);
  return paths;
}
