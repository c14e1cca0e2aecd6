import {
  type FunctionTool,
  type JsonObject,
  type Message,
  type RenderOptions,
  type Request,
  type Sampling,
  type Tool,
  warnMovedSystem,
} from "@interlingua/core-types";
import { invalidRequest } from "@interlingua/errors";
import { renderNativeThinkingConfig } from "./map-native-thinking-config.js";
import {
  type NativeFunctionCalling,
  parseNativeToolChoice,
  renderNativeToolChoice,
  sameToolChoice,
} from "./map-native-tool-choice.js";
import type {
  NativeContent,
  NativeFunctionCallingConfig,
  NativeFunctionDeclaration,
  NativeGenerationConfig,
  NativePart,
  NativeRequestWire,
  NativeTool,
  NativeToolConfig,
} from "./native-api.js";
import { type NativeBookkeeping, readBookkeeping, readUnknownFields } from "./native-extras.js";
import { renderFunctionResponse } from "./native-function-response.js";
import { type PartRenderContext, renderAssistantPart, renderUserPart } from "./native-parts.js";
import { isGeneratedCallId } from "./native-tool-call-ids.js";
import { orderToolResults } from "./order-tool-results.js";
import { sanitizeNativeJsonSchema } from "./sanitize-native-json-schema.js";
import { sanitizeNativeSchema } from "./sanitize-native-schema.js";

/** canonical sampling field -> generationConfig field. */
const samplingTable = {
  temperature: "temperature",
  topP: "topP",
  topK: "topK",
  maxTokens: "maxOutputTokens",
  stop: "stopSequences",
  n: "candidateCount",
  seed: "seed",
  presencePenalty: "presencePenalty",
  frequencyPenalty: "frequencyPenalty",
} as const satisfies Record<keyof Sampling, keyof NativeGenerationConfig>;

const responseMimeTypes = {
  text: "text/plain",
  "json-object": "application/json",
  "json-schema": "application/json",
} as const;

/** The canonical tool kinds with a built-in counterpart here. */
const builtInToolKeys = { web_search: "googleSearch", file_search: "fileSearch" } as const;

const roles = { user: "user", assistant: "model", tool: "user" } as const;

/** An object schema that accepts only {}: the upstream wants no `parameters` at all then. */
function isEmptyObjectSchema(schema: JsonObject): boolean {
  for (const key in schema) {
    if (key === "type") {
      if (typeof schema.type !== "string" || schema.type.toLowerCase() !== "object") return false;
    } else if (key === "properties") {
      const p = schema.properties;
      if (typeof p !== "object" || p === null || Object.keys(p).length > 0) return false;
    } else {
      return false;
    }
  }
  return true;
}

/** A part that says nothing: empty text with no signature (Gemini refuses a turn of only these). */
const isEmptyPart = (part: NativePart): boolean =>
  part.text === "" && Object.keys(part).every((key) => key === "text");

function renderContents(messages: Message[], ctx: PartRenderContext): NativeContent[] {
  const warn = ctx.options?.onWarning;
  const callNames = new Map<string, string>();
  const contents = messages.map((message, m): NativeContent | undefined => {
    const feature = `messages[${m}]`;
    if (message.role !== "tool" && message.name !== undefined) {
      warn?.({ type: "dropped", feature: `${feature}.name`, message: "turns carry no name" });
    }
    const parts: NativePart[] = [];
    if (message.role === "user") {
      message.parts.forEach((part, p) => {
        parts.push(renderUserPart(part, `${feature}.parts[${p}]`, ctx));
      });
    } else if (message.role === "assistant") {
      message.parts.forEach((part, p) => {
        if (part.type === "tool-call") callNames.set(part.id, part.name);
        const out = renderAssistantPart(part, `${feature}.parts[${p}]`, ctx);
        if (out !== undefined) parts.push(out);
      });
      // An empty assistant turn (`parts: []`, or only "") is refused by Gemini: left out, unless
      // it is the only turn (a request needs one; the upstream's refusal then says why).
      if (parts.every(isEmptyPart) && messages.length > 1) {
        warn?.({
          type: "dropped",
          feature,
          message: "an assistant turn with no content (Gemini refuses an empty model turn)",
        });
        return undefined;
      }
    } else {
      message.parts.forEach((part, p) => {
        const at = `${feature}.parts[${p}]`;
        // The upstream matches a response to its call by name (and order), so a name is required.
        const name = part.name ?? callNames.get(part.toolCallId);
        if (name === undefined) {
          throw invalidRequest(
            `${at}.name: the tool result for ${part.toolCallId} names no tool and no earlier tool call has that id`,
            `${at}.name`,
          );
        }
        const { response, parts: media } = renderFunctionResponse(part, at, ctx.options);
        const functionResponse: NonNullable<NativePart["functionResponse"]> = { name, response };
        if (!isGeneratedCallId(part.toolCallId)) functionResponse.id = part.toolCallId;
        if (media !== undefined) functionResponse.parts = media;
        const out: NativePart = { functionResponse };
        if (part.cacheControl !== undefined) out.cache_control = { ...part.cacheControl };
        parts.push(out);
      });
    }
    return { role: roles[message.role], parts };
  });
  return contents.filter((content): content is NativeContent => content !== undefined);
}

function renderFunctionTool(
  tool: FunctionTool,
  feature: string,
  book: NativeBookkeeping,
  options: RenderOptions | undefined,
): NativeFunctionDeclaration {
  const warn = options?.onWarning;
  const declaration: NativeFunctionDeclaration = {
    ...book.declarations?.[tool.name],
    name: tool.name,
  };
  if (tool.description !== undefined) declaration.description = tool.description;
  if (book.jsonSchemaFunctions?.includes(tool.name)) {
    declaration.parametersJsonSchema = tool.parameters;
  } else {
    const parameters = sanitizeNativeSchema(tool.parameters, (step) =>
      warn?.({
        type: "mapped",
        feature: `${feature}.parameters`,
        message: `${step.path || "/"}: ${step.message}`,
      }),
    );
    if (!isEmptyObjectSchema(parameters)) declaration.parameters = parameters;
  }
  if (tool.strict !== undefined) {
    warn?.({
      type: "dropped",
      feature: `${feature}.strict`,
      message: "declarations have no strict flag",
    });
  }
  if (tool.cacheControl !== undefined) {
    warn?.({
      type: "dropped",
      feature: `${feature}.cacheControl`,
      message: "cache boundaries sit on content parts here, not on tools",
    });
  }
  return declaration;
}

/** The client's own mode and names, while the tool choice is still the one they stand for. */
function keptCalling(request: Request, book: NativeBookkeeping): NativeFunctionCalling | undefined {
  const kept = book.functionCalling;
  return kept !== undefined && sameToolChoice(parseNativeToolChoice(kept), request.toolChoice)
    ? kept
    : undefined;
}

/**
 * With `auto` and an allowed list (OpenAI `allowed_tools`), only the allowed tools are sent:
 * allowedFunctionNames goes with ANY or VALIDATED only, so AUTO cannot say it. (`required` sends
 * them as allowedFunctionNames; a client's own VALIDATED with names is sent as it came.)
 */
function allowedDeclarations(
  request: Request,
  book: NativeBookkeeping,
  options: RenderOptions | undefined,
): Tool[] {
  const choice = request.toolChoice;
  if (choice?.type !== "auto" || !choice.allowed) return request.tools;
  if (keptCalling(request, book)?.allowedFunctionNames !== undefined) return request.tools;
  const allowed = new Set(choice.allowed);
  const kept = request.tools.filter(
    (tool) => (tool.type === "function" || tool.type === "provider") && allowed.has(tool.name),
  );
  if (kept.length < request.tools.length) {
    options?.onWarning?.({
      type: "mapped",
      feature: "tools",
      message: `Gemini takes allowedFunctionNames with mode ANY only; with AUTO only the allowed tools are sent (${choice.allowed.join(", ")})`,
    });
  }
  return kept;
}

/** Function tools form one functionDeclarations entry, placed where the first one was. */
function renderTools(
  tools: Tool[],
  book: NativeBookkeeping,
  options: RenderOptions | undefined,
): NativeTool[] {
  const out: NativeTool[] = [];
  let declarations: NativeFunctionDeclaration[] | undefined;
  tools.forEach((tool, t) => {
    const feature = `tools[${t}]`;
    switch (tool.type) {
      case "function":
        if (!declarations) {
          declarations = [];
          out.push({ functionDeclarations: declarations });
        }
        declarations.push(renderFunctionTool(tool, feature, book, options));
        return;
      case "web_search":
      case "file_search":
        out.push({ [builtInToolKeys[tool.type]]: { ...tool.options } });
        return;
      case "provider":
        if (tool.provider === "gemini") {
          out.push({ [tool.name]: { ...tool.options } });
          return;
        }
        options?.onWarning?.({
          type: "dropped",
          feature,
          message: `the ${tool.provider} tool ${tool.name} exists only on that provider`,
        });
        return;
      case "remote_mcp":
        options?.onWarning?.({
          type: "dropped",
          feature,
          message: "remote MCP servers are not a tool of this format",
        });
        return;
    }
  });
  return out;
}

function renderToolConfig(request: Request, book: NativeBookkeeping): NativeToolConfig | undefined {
  const calling: NativeFunctionCallingConfig = { ...book.functionCallingConfig };
  const wanted = request.toolChoice;
  const source =
    keptCalling(request, book) ??
    (wanted === undefined ? undefined : renderNativeToolChoice(wanted));
  if (source?.mode !== undefined) calling.mode = source.mode;
  if (source?.allowedFunctionNames !== undefined) {
    calling.allowedFunctionNames = [...source.allowedFunctionNames];
  }
  const config: NativeToolConfig = { ...book.toolConfig };
  if (Object.keys(calling).length > 0) config.functionCallingConfig = calling;
  return Object.keys(config).length > 0 ? config : undefined;
}

function renderGenerationConfig(
  request: Request,
  book: NativeBookkeeping,
  options: RenderOptions | undefined,
): NativeGenerationConfig | undefined {
  const config: NativeGenerationConfig = { ...book.generationConfig };
  const sampling = request.sampling as Record<string, unknown>;
  const target = config as Record<string, unknown>;
  for (const field in samplingTable) {
    const value = sampling[field];
    if (value !== undefined) {
      target[samplingTable[field as keyof typeof samplingTable]] = Array.isArray(value)
        ? [...value]
        : value;
    }
  }
  const format = request.responseFormat;
  if (format !== undefined) {
    config.responseMimeType = responseMimeTypes[format.type];
    if (format.type === "json-schema") {
      // A schema that came as responseSchema goes back as it came; any other is JSON Schema,
      // cut to the subset responseJsonSchema accepts (never forwarded blindly).
      if (book.responseSchemaField === "responseSchema") config.responseSchema = format.schema;
      else if (book.responseSchemaField === "responseJsonSchema")
        config.responseJsonSchema = format.schema;
      else {
        config.responseJsonSchema = sanitizeNativeJsonSchema(format.schema, (step) =>
          options?.onWarning?.({
            type: "mapped",
            feature: "responseFormat.schema",
            message: `${step.path || "/"}: ${step.message}`,
          }),
        );
      }
      if (format.name !== undefined || format.strict !== undefined) {
        options?.onWarning?.({
          type: "dropped",
          feature: "responseFormat",
          message: "a response schema has no name or strict flag here",
        });
      }
    }
  }
  if (request.thinking !== undefined) {
    config.thinkingConfig = renderNativeThinkingConfig(request.thinking, request.model, options);
  }
  if (request.logprobs !== undefined) config.responseLogprobs = request.logprobs;
  if (request.topLogprobs !== undefined) config.logprobs = request.topLogprobs;
  return Object.keys(config).length > 0 ? config : undefined;
}

/** Canonical fields this format has no place for, reported when set. */
function reportDropped(request: Request, options: RenderOptions | undefined): void {
  const warn = options?.onWarning;
  if (!warn) return;
  if (request.parallelToolCalls !== undefined) {
    warn({
      type: "dropped",
      feature: "parallelToolCalls",
      message: "no parallel-calls switch here",
    });
  }
  if (request.user !== undefined) {
    warn({ type: "dropped", feature: "user", message: "no end-user id field here" });
  }
  if (request.metadata !== undefined) {
    warn({ type: "dropped", feature: "metadata", message: "no request metadata field here" });
  }
  request.system.forEach((part, i) => {
    if (part.cacheControl !== undefined) {
      warn({
        type: "dropped",
        feature: `system[${i}].cacheControl`,
        message: "a cache boundary never sits inside systemInstruction",
      });
    }
  });
}

/**
 * Canonical request -> generate-content request body. The model and the stream flag are not part
 * of the body (see `renderNativeUpstreamRequest` for the path). Tool schemas are sanitised into the
 * upstream's Schema object, each rewrite reported as a 'mapped' warning.
 */
export function renderNativeRequest(request: Request, options?: RenderOptions): NativeRequestWire {
  const book = readBookkeeping(request.extras);
  const ctx: PartRenderContext = { book, options };
  reportDropped(request, options);
  warnMovedSystem(request, options?.onWarning);
  const body: NativeRequestWire = {
    ...readUnknownFields(request.extras),
    contents: renderContents(orderToolResults(request.messages, options?.onWarning), ctx),
  };
  if (request.system.length > 0) {
    body.systemInstruction = {
      ...(book.systemRole === undefined ? {} : { role: book.systemRole }),
      parts: request.system.map((part) =>
        part.signature === undefined
          ? { text: part.text }
          : { text: part.text, thoughtSignature: part.signature },
      ),
    };
  }
  const generationConfig = renderGenerationConfig(request, book, options);
  if (generationConfig !== undefined) body.generationConfig = generationConfig;
  if (request.providerExtras?.gemini?.safetySettings !== undefined) {
    body.safetySettings = request.providerExtras.gemini.safetySettings.map((s) => ({ ...s }));
  }
  if (request.tools.length > 0) {
    const tools = renderTools(allowedDeclarations(request, book, options), book, options);
    if (tools.length > 0) body.tools = tools;
  }
  const toolConfig = renderToolConfig(request, book);
  if (toolConfig !== undefined) body.toolConfig = toolConfig;
  if (request.providerExtras?.gemini?.cachedContent !== undefined)
    body.cachedContent = request.providerExtras.gemini.cachedContent;
  return body;
}

export interface NativeUpstreamRequest {
  /** `/v1beta/models/{model}:generateContent` or `...:streamGenerateContent?alt=sse`. */
  path: string;
  body: NativeRequestWire;
}

/**
 * What the gateway sends to a Gemini channel: the path (model and method from the canonical
 * request) and the body. Cache boundaries are the gateway's to turn into cachedContents before
 * this point; any left are removed here, each reported, since the upstream refuses the field.
 */
export function renderNativeUpstreamRequest(
  request: Request,
  options?: RenderOptions & { model?: string },
): NativeUpstreamRequest {
  const body = renderNativeRequest(request, options);
  body.contents.forEach((content, c) => {
    content.parts.forEach((part, p) => {
      if (part.cache_control === undefined) return;
      delete part.cache_control;
      options?.onWarning?.({
        type: "dropped",
        feature: `messages[${c}].parts[${p}].cacheControl`,
        message: "the upstream takes no cache_control; the boundary was not turned into a cache",
      });
    });
  });
  const model = encodeURIComponent(options?.model ?? request.model);
  const method = request.stream ? "streamGenerateContent?alt=sse" : "generateContent";
  return { path: `/v1beta/models/${model}:${method}`, body };
}
