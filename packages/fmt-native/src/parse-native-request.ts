import type {
  AssistantPart,
  JsonObject,
  Message,
  Request,
  ResponseFormat,
  Sampling,
  TextPart,
  Tool,
  ToolResultPart,
  UserPart,
} from "@interlingua/core-types";
import { FIELD_REQUIRED, invalidField, invalidFromZod, invalidRequest } from "@interlingua/errors";
import { checkNativeContents } from "./check-native-contents.js";
import { parseNativeThinkingConfig } from "./map-native-thinking-config.js";
import {
  isReversibleFunctionCalling,
  type NativeFunctionCalling,
  parseNativeToolChoice,
} from "./map-native-tool-choice.js";
import { MISPLACED_CACHE_CONTROL } from "./misplaced-cache-control.js";
import { aliasNativeRequest } from "./native-aliases.js";
import {
  type NativeContent,
  type NativeFunctionDeclaration,
  type NativeGenerationConfig,
  type NativeTool,
  type NativeToolConfig,
  nativeRequestSchema,
} from "./native-api.js";
import { buildExtras, geminiRequestExtras, type NativeBookkeeping } from "./native-extras.js";
import { parseFunctionResponse } from "./native-function-response.js";
import {
  dataFieldOf,
  type PartParseContext,
  parseAssistantPart,
  parseUserPart,
} from "./native-parts.js";
import { generatedCallId } from "./native-tool-call-ids.js";
import { sanitizeNativeJsonSchema } from "./sanitize-native-json-schema.js";

export interface ParseNativeRequestOptions {
  /** The model of the URL path (`/v1beta/models/{model}:{method}`); wins over a body `model`. */
  model?: string;
  /** True for `streamGenerateContent`. */
  stream?: boolean;
}

const knownFields = new Set([
  "model",
  "contents",
  "systemInstruction",
  "generationConfig",
  "safetySettings",
  "tools",
  "toolConfig",
  "cachedContent",
]);

const knownGenerationFields = new Set([
  "temperature",
  "topP",
  "topK",
  "maxOutputTokens",
  "stopSequences",
  "candidateCount",
  "seed",
  "presencePenalty",
  "frequencyPenalty",
  "responseMimeType",
  "responseSchema",
  "responseJsonSchema",
  "thinkingConfig",
  "responseLogprobs",
  "logprobs",
]);

/** generationConfig field -> canonical sampling field. */
const samplingTable = {
  temperature: "temperature",
  topP: "topP",
  topK: "topK",
  maxOutputTokens: "maxTokens",
  stopSequences: "stop",
  candidateCount: "n",
  seed: "seed",
  presencePenalty: "presencePenalty",
  frequencyPenalty: "frequencyPenalty",
} as const satisfies Partial<Record<keyof NativeGenerationConfig, keyof Sampling>>;

/** Built-in tools with a canonical kind; every other tool key is a provider tool. */
const builtInTools: Readonly<Record<string, "web_search" | "file_search">> = {
  googleSearch: "web_search",
  fileSearch: "file_search",
};

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function unknownFields(source: Record<string, unknown>, known: ReadonlySet<string>) {
  const out: Record<string, unknown> = {};
  for (const key in source) if (!known.has(key)) out[key] = source[key];
  return out;
}

const stripModelsPrefix = (model: string) =>
  model.startsWith("models/") ? model.slice("models/".length) : model;

interface PendingCall {
  id: string;
  name: string;
  answered: boolean;
}

/**
 * Turns: model -> assistant; user (or an omitted or legacy "function" role) -> user, split into
 * runs so that functionResponse parts become `tool` messages and the rest `user` messages, in
 * order. A function response without an id answers the earliest unanswered call of that name.
 */
function parseContents(contents: NativeContent[], ctx: PartParseContext): Message[] {
  const messages: Message[] = [];
  const pending: PendingCall[] = [];
  contents.forEach((content, c) => {
    const at = ["contents", c, "parts"] as const;
    if (content.role === "model") {
      const parts: AssistantPart[] = content.parts.map((part, p) => {
        const parsed = parseAssistantPart(part, [...at, p], ctx);
        if (parsed.type === "tool-call") {
          pending.push({ id: parsed.id, name: parsed.name, answered: false });
        }
        return parsed;
      });
      messages.push({ role: "assistant", parts });
      return;
    }
    let user: UserPart[] | undefined;
    let tool: ToolResultPart[] | undefined;
    content.parts.forEach((part, p) => {
      const path = [...at, p];
      const field = dataFieldOf(part, path);
      if (field !== "functionResponse") {
        tool = undefined;
        if (!user) {
          user = [];
          messages.push({ role: "user", parts: user });
        }
        user.push(parseUserPart(part, field, path, ctx));
        return;
      }
      user = undefined;
      if (!tool) {
        tool = [];
        messages.push({ role: "tool", parts: tool });
      }
      const response = part.functionResponse!;
      let call: PendingCall | undefined;
      if (response.id !== undefined) {
        call = pending.find((x) => x.id === response.id);
      } else {
        call = pending.find((x) => !x.answered && x.name === response.name);
      }
      if (call) call.answered = true;
      const { content: resultContent, isError } = parseFunctionResponse(response, [
        ...path,
        "functionResponse",
      ]);
      const result: ToolResultPart = {
        type: "tool-result",
        toolCallId: response.id ?? call?.id ?? ctx.nextCallId(),
        name: response.name,
        content: resultContent,
      };
      if (isError) result.isError = true;
      if (part.cache_control) {
        result.cacheControl =
          part.cache_control.ttl === undefined
            ? { type: "ephemeral" }
            : { type: "ephemeral", ttl: part.cache_control.ttl };
      }
      tool.push(result);
    });
  });
  return messages;
}

/** A client's own responseJsonSchema that the render's sanitiser would change: kept as sent. */
function outsideJsonSubset(schema: JsonObject): boolean {
  let changed = false;
  sanitizeNativeJsonSchema(schema, () => {
    changed = true;
  });
  return changed;
}

function parseResponseFormat(
  config: NativeGenerationConfig,
  book: NativeBookkeeping,
): ResponseFormat | undefined {
  const { responseMimeType: mime, responseSchema, responseJsonSchema } = config;
  if (responseSchema !== undefined && responseJsonSchema !== undefined) {
    throw invalidField(
      ["generationConfig", "responseJsonSchema"],
      "set responseSchema or responseJsonSchema, not both",
    );
  }
  const schema = responseJsonSchema ?? responseSchema;
  if (mime === "application/json") {
    if (schema === undefined) return { type: "json-object" };
    if (responseSchema !== undefined) book.responseSchemaField = "responseSchema";
    else if (outsideJsonSubset(schema)) book.responseSchemaField = "responseJsonSchema";
    return { type: "json-schema", schema };
  }
  if (mime === "text/plain" && schema === undefined) return { type: "text" };
  // Other combinations (text/x.enum, a schema without a JSON type) have no canonical form.
  const kept: Record<string, unknown> = {};
  if (mime !== undefined) kept.responseMimeType = mime;
  if (responseSchema !== undefined) kept.responseSchema = responseSchema;
  if (responseJsonSchema !== undefined) kept.responseJsonSchema = responseJsonSchema;
  if (Object.keys(kept).length > 0) book.generationConfig = { ...book.generationConfig, ...kept };
  return undefined;
}

function parseTools(tools: NativeTool[], book: NativeBookkeeping): Tool[] {
  const out: Tool[] = [];
  tools.forEach((entry, t) => {
    // Declarations first, wherever the client put the key: the order zod's copy of the entry had.
    entry.functionDeclarations?.forEach((declaration, d) => {
      out.push(parseDeclaration(declaration, ["tools", t, "functionDeclarations", d], book));
    });
    for (const key in entry) {
      if (key === MISPLACED_CACHE_CONTROL || key === "functionDeclarations") continue;
      const value = entry[key];
      if (!isRecord(value)) throw invalidField(["tools", t, key], "expected an object");
      const kind = builtInTools[key];
      if (kind !== undefined) {
        out.push(Object.keys(value).length > 0 ? { type: kind, options: value } : { type: kind });
      } else {
        out.push({ type: "provider", provider: "gemini", name: key, options: value });
      }
    }
  });
  return out;
}

function parseDeclaration(
  declaration: NativeFunctionDeclaration,
  path: readonly PropertyKey[],
  book: NativeBookkeeping,
): Tool {
  const {
    name,
    description,
    parameters,
    parametersJsonSchema,
    [MISPLACED_CACHE_CONTROL]: _boundary,
    ...rest
  } = declaration as NativeFunctionDeclaration & { [MISPLACED_CACHE_CONTROL]?: unknown };
  if (parameters !== undefined && parametersJsonSchema !== undefined) {
    throw invalidField(path, "set parameters or parametersJsonSchema, not both");
  }
  const fn: Tool = {
    type: "function",
    name,
    // A function without parameters takes none: the empty object schema says so.
    parameters: (parametersJsonSchema ??
      parameters ?? {
        type: "object",
        properties: {},
      }) as JsonObject,
  };
  if (description !== undefined) fn.description = description;
  if (parametersJsonSchema !== undefined) {
    book.jsonSchemaFunctions = [...(book.jsonSchemaFunctions ?? []), name];
  }
  if (Object.keys(rest).length > 0) book.declarations = { ...book.declarations, [name]: rest };
  return fn;
}

function parseToolConfig(config: NativeToolConfig, book: NativeBookkeeping, request: Request) {
  const { functionCallingConfig, ...otherConfig } = config;
  if (Object.keys(otherConfig).length > 0) book.toolConfig = otherConfig;
  if (functionCallingConfig === undefined) return;
  const { mode, allowedFunctionNames, ...otherCalling } = functionCallingConfig;
  if (Object.keys(otherCalling).length > 0) book.functionCallingConfig = otherCalling;
  const calling: NativeFunctionCalling = {};
  if (mode !== undefined) calling.mode = mode;
  if (allowedFunctionNames !== undefined) calling.allowedFunctionNames = allowedFunctionNames;
  const choice = parseNativeToolChoice(calling);
  if (choice !== undefined) request.toolChoice = choice;
  if (!isReversibleFunctionCalling(calling)) book.functionCalling = calling;
}

/**
 * A generate-content request body -> canonical request. The model and the stream flag are not in
 * the body: they come from the URL path (`options`); a body `model` ("models/x" or "x") is
 * accepted when no path model is given. Throws a 400 GatewayError naming the field on bad input.
 */
export function parseNativeRequest(
  body: unknown,
  options: ParseNativeRequestOptions = {},
): Request {
  const aliased = aliasNativeRequest(body);
  const parsed = nativeRequestSchema.safeParse(aliased);
  if (!parsed.success) throw invalidFromZod(parsed.error, "request");
  const wire = parsed.data;
  checkNativeContents(wire.contents);
  const model =
    options.model ?? (wire.model === undefined ? undefined : stripModelsPrefix(wire.model));
  if (model === undefined || model === "") {
    throw invalidRequest(
      `model: ${FIELD_REQUIRED}; the native format names it in the URL path (/v1beta/models/{model}:{method})`,
      "model",
    );
  }
  const book: NativeBookkeeping = {};
  let calls = 0;
  const ctx: PartParseContext = { book, nextCallId: () => generatedCallId(calls++) };

  const system: TextPart[] = [];
  if (wire.systemInstruction !== undefined) {
    if (wire.systemInstruction.role !== undefined) book.systemRole = wire.systemInstruction.role;
    for (const part of wire.systemInstruction.parts) {
      const text: TextPart = { type: "text", text: part.text };
      if (part.thoughtSignature !== undefined) text.signature = part.thoughtSignature;
      system.push(text);
    }
  }

  const request: Request = {
    model,
    system,
    messages: parseContents(wire.contents, ctx),
    sampling: {},
    tools: wire.tools === undefined ? [] : parseTools(wire.tools, book),
    stream: options.stream ?? false,
  };

  const config = wire.generationConfig;
  if (config !== undefined) {
    for (const field in samplingTable) {
      const value = config[field as keyof typeof samplingTable];
      if (value !== undefined) {
        (request.sampling as Record<string, unknown>)[
          samplingTable[field as keyof typeof samplingTable]
        ] = value;
      }
    }
    if (config.thinkingConfig !== undefined) {
      request.thinking = parseNativeThinkingConfig(config.thinkingConfig, [
        "generationConfig",
        "thinkingConfig",
      ]);
    }
    if (config.responseLogprobs !== undefined) request.logprobs = config.responseLogprobs;
    if (config.logprobs !== undefined) request.topLogprobs = config.logprobs;
    const responseFormat = parseResponseFormat(config, book);
    if (responseFormat !== undefined) request.responseFormat = responseFormat;
    const other = unknownFields(config, knownGenerationFields);
    if (Object.keys(other).length > 0)
      book.generationConfig = { ...other, ...book.generationConfig };
  }
  if (wire.safetySettings !== undefined) {
    geminiRequestExtras(request).safetySettings = wire.safetySettings.map((s) => ({
      category: s.category,
      threshold: s.threshold,
    }));
  }
  if (wire.toolConfig !== undefined) parseToolConfig(wire.toolConfig, book, request);
  if (wire.cachedContent !== undefined)
    geminiRequestExtras(request).cachedContent = wire.cachedContent;

  const extras = buildExtras(unknownFields(aliased as Record<string, unknown>, knownFields), book);
  if (extras !== undefined) request.extras = extras;
  return request;
}
