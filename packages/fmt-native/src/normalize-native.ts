import type { JsonObject } from "@interlingua/core-types";
import { invalidFromZod } from "@interlingua/errors";
import { MISPLACED_CACHE_CONTROL } from "./misplaced-cache-control.js";
import { aliasNativeRequest } from "./native-aliases.js";
import {
  type NativeCandidate,
  type NativeContent,
  type NativeFunctionDeclaration,
  type NativePart,
  type NativeRequestWire,
  type NativeResponseWire,
  type NativeTool,
  type NativeUsageMetadata,
  nativeRequestSchema,
  nativeResponseSchema,
} from "./native-api.js";
import { normalizeNativeLogprobs } from "./native-logprobs.js";
import { renderedImageType } from "./native-media.js";
import { sanitizeNativeSchema } from "./sanitize-native-schema.js";

/**
 * The normal forms of law 1: `render(parse(w))` equals `normalize(w)`. Each rule below is a
 * spelling the converters do not keep; everything else comes back exactly.
 */

/** Part fields the converters keep: the one payload, and what belongs to it. */
function normalizePart(part: NativePart, role: "user" | "model"): NativePart {
  const out: NativePart = {};
  if (part.text !== undefined) {
    out.text = part.text;
    // thought: false is the default; a thought part drops a cache boundary (thinking has none).
    if (part.thought === true && role === "model") out.thought = true;
    if (part.thoughtSignature !== undefined) out.thoughtSignature = part.thoughtSignature;
    if (part.cache_control !== undefined && out.thought !== true)
      out.cache_control = part.cache_control;
    return out;
  }
  if (part.functionCall !== undefined) {
    // No args means no arguments: rendered as {}.
    out.functionCall = { ...part.functionCall, args: part.functionCall.args ?? {} };
    if (part.thoughtSignature !== undefined) out.thoughtSignature = part.thoughtSignature;
  } else if (part.functionResponse !== undefined) {
    const { parts, ...rest } = part.functionResponse;
    out.functionResponse = { ...rest, response: rest.response ?? {} };
    if (parts !== undefined && parts.length > 0) {
      // Images of a function response come back typed by their URL, as the renderer writes them.
      out.functionResponse.parts = parts.map((p) =>
        p.fileData !== undefined
          ? {
              fileData: {
                mimeType: renderedImageType(p.fileData.fileUri),
                fileUri: p.fileData.fileUri,
              },
            }
          : { inlineData: p.inlineData! },
      );
    }
  } else if (part.inlineData !== undefined) {
    out.inlineData = part.inlineData;
  } else if (part.fileData !== undefined) {
    out.fileData = part.fileData;
  }
  // Media and function responses carry no signature in the canonical model.
  if (part.cache_control !== undefined) out.cache_control = part.cache_control;
  return out;
}

/**
 * A user turn mixing function responses with other parts becomes one turn per run (the canonical
 * `tool` and `user` messages); an omitted or legacy "function" role is "user".
 */
function normalizeContents(contents: NativeContent[]): NativeContent[] {
  const out: NativeContent[] = [];
  for (const content of contents) {
    if (content.role === "model") {
      const parts = content.parts.map((p) => normalizePart(p, "model"));
      // An empty model turn is left out when rendered (Gemini refuses one).
      if (contents.length > 1 && parts.every((p) => p.text === "" && Object.keys(p).length === 1)) {
        continue;
      }
      out.push({ role: "model", parts });
      continue;
    }
    if (content.parts.length === 0) {
      out.push({ role: "user", parts: [] });
      continue;
    }
    let run: NativePart[] | undefined;
    let runIsResponse = false;
    for (const part of content.parts) {
      const isResponse = part.functionResponse !== undefined;
      if (!run || isResponse !== runIsResponse) {
        run = [];
        runIsResponse = isResponse;
        out.push({ role: "user", parts: run });
      }
      run.push(normalizePart(part, "user"));
    }
  }
  return out;
}

const isEmptyObjectSchema = (schema: JsonObject) =>
  Object.keys(schema).every(
    (k) =>
      (k === "type" && typeof schema.type === "string" && schema.type.toLowerCase() === "object") ||
      (k === "properties" &&
        typeof schema.properties === "object" &&
        schema.properties !== null &&
        Object.keys(schema.properties).length === 0),
  );

/**
 * Declarations are sanitised (`sanitizeNativeSchema`) and lose a misplaced cache_control; a schema
 * that takes only {} is omitted.
 */
function normalizeDeclaration(declaration: NativeFunctionDeclaration): NativeFunctionDeclaration {
  const { [MISPLACED_CACHE_CONTROL]: _boundary, ...declared } =
    declaration as NativeFunctionDeclaration & { [MISPLACED_CACHE_CONTROL]?: unknown };
  const { parameters, ...rest } = declared;
  if (parameters === undefined || rest.parametersJsonSchema !== undefined) return declared;
  const sanitized = sanitizeNativeSchema(parameters);
  return isEmptyObjectSchema(sanitized) ? rest : { ...rest, parameters: sanitized };
}

/**
 * One tool entry per built-in tool, in order; all function declarations in one entry, placed
 * where the first one was. An empty list is omitted.
 */
function normalizeTools(tools: NativeTool[]): NativeTool[] | undefined {
  const out: NativeTool[] = [];
  let declarations: NativeFunctionDeclaration[] | undefined;
  for (const entry of tools) {
    for (const key in entry) {
      if (key === MISPLACED_CACHE_CONTROL) continue;
      if (key !== "functionDeclarations") {
        out.push({ [key]: entry[key] });
        continue;
      }
      if (!declarations) {
        declarations = [];
        out.push({ functionDeclarations: declarations });
      }
      for (const d of entry.functionDeclarations ?? []) declarations.push(normalizeDeclaration(d));
    }
  }
  return out.length > 0 ? out : undefined;
}

/**
 * Request normal form: camelCase spellings; no `model` (it belongs to the URL path); unknown part
 * fields, `thought: false` and signatures on media or function responses dropped; a function call
 * without args has `args: {}`; a function response without `response` has `{}`; user turns split
 * into runs of function responses and other parts; `thinkingLevel` lowercase; the tools laid out
 * as `normalizeTools` says; empty systemInstruction, generationConfig, tools, toolConfig and
 * functionCallingConfig omitted. Everything else, unknown top-level fields included, is kept.
 */
export function normalizeNativeRequest(wire: unknown): NativeRequestWire {
  const aliased = aliasNativeRequest(wire);
  const parsed = nativeRequestSchema.safeParse(aliased);
  if (!parsed.success) throw invalidFromZod(parsed.error, "request");
  const {
    model: _model,
    contents,
    systemInstruction,
    generationConfig,
    tools,
    toolConfig,
    ...rest
  } = parsed.data;
  const out: NativeRequestWire = { ...rest, contents: normalizeContents(contents) };
  if (systemInstruction !== undefined && systemInstruction.parts.length > 0) {
    out.systemInstruction = systemInstruction;
  }
  if (generationConfig !== undefined && Object.keys(generationConfig).length > 0) {
    out.generationConfig = generationConfig;
  }
  const normalizedTools = tools === undefined ? undefined : normalizeTools(tools);
  if (normalizedTools !== undefined) out.tools = normalizedTools;
  if (toolConfig !== undefined) {
    const { functionCallingConfig, ...otherConfig } = toolConfig;
    const config = { ...otherConfig };
    if (functionCallingConfig !== undefined && Object.keys(functionCallingConfig).length > 0) {
      config.functionCallingConfig = functionCallingConfig;
    }
    if (Object.keys(config).length > 0) out.toolConfig = config;
  }
  return out;
}

/** Counts as the canonical usage gives them back: total = prompt + candidates + thoughts. */
function normalizeUsage(usage: NativeUsageMetadata | undefined): NativeUsageMetadata {
  const prompt = usage?.promptTokenCount ?? 0;
  const candidates = usage?.candidatesTokenCount ?? 0;
  const thoughts = usage?.thoughtsTokenCount ?? 0;
  const out: NativeUsageMetadata = {
    promptTokenCount: prompt,
    candidatesTokenCount: candidates,
    totalTokenCount: prompt + candidates + thoughts,
  };
  if (thoughts > 0) out.thoughtsTokenCount = thoughts;
  if (usage?.cachedContentTokenCount) out.cachedContentTokenCount = usage.cachedContentTokenCount;
  if (usage?.promptTokensDetails !== undefined) {
    out.promptTokensDetails = usage.promptTokensDetails.map((d) => ({
      modality: d.modality,
      tokenCount: d.tokenCount ?? 0,
    }));
  }
  if (usage?.serviceTier !== undefined) out.serviceTier = usage.serviceTier;
  return out;
}

/**
 * Response normal form: candidate fields other than content, finishReason, finishMessage, index
 * and safetyRatings dropped (citations, grounding) except logprobsResult and avgLogprobs, which
 * keep their tokens (`logProbabilitySum` and empty results dropped, a zero value written out,
 * topCandidates only when some step has alternatives); content role "model";
 * a missing index is the position and a missing finishReason "OTHER"; parts as in requests;
 * usageMetadata as `normalizeUsage` says (always present); empty candidates, responseId and
 * modelVersion omitted. createTime and unknown top-level fields are kept.
 */
export function normalizeNativeResponse(wire: unknown): NativeResponseWire {
  const parsed = nativeResponseSchema.safeParse(wire);
  if (!parsed.success) throw invalidFromZod(parsed.error, "response");
  const { candidates, usageMetadata, modelVersion, responseId, ...rest } = parsed.data;
  const out: NativeResponseWire = { ...rest };
  if (candidates !== undefined && candidates.length > 0) {
    out.candidates = candidates.map((c, i): NativeCandidate => {
      const candidate: NativeCandidate = {
        content: {
          role: "model",
          parts: (c.content?.parts ?? []).map((p) => normalizePart(p, "model")),
        },
        finishReason: c.finishReason ?? "OTHER",
        index: c.index ?? i,
      };
      // Kept only with a finishReason: without one the candidate reads as "other", no reason.
      if (c.finishReason !== undefined && c.finishMessage !== undefined) {
        candidate.finishMessage = c.finishMessage;
      }
      if (c.safetyRatings !== undefined) candidate.safetyRatings = c.safetyRatings;
      Object.assign(candidate, normalizeNativeLogprobs(c.logprobsResult, c.avgLogprobs));
      return candidate;
    });
  }
  // A lone empty candidate stopped for the prompt's own block reason says what the feedback
  // says: it reads as the blocked prompt and renders as the feedback alone (blocked-prompt.ts).
  const only = out.candidates?.length === 1 ? out.candidates[0] : undefined;
  const blockReason = rest.promptFeedback?.blockReason;
  if (
    only !== undefined &&
    blockReason !== undefined &&
    only.index === 0 &&
    only.content?.parts?.length === 0 &&
    candidates?.[0]?.finishReason === blockReason &&
    only.finishMessage === undefined &&
    only.safetyRatings === undefined &&
    only.avgLogprobs === undefined &&
    only.logprobsResult === undefined
  ) {
    delete out.candidates;
  }
  out.usageMetadata = normalizeUsage(usageMetadata);
  if (modelVersion !== undefined && modelVersion !== "") out.modelVersion = modelVersion;
  if (responseId !== undefined && responseId !== "") out.responseId = responseId;
  return out;
}
