import type {
  AssistantMessage,
  FilePart,
  ImagePart,
  Message,
  Request,
  ResponseFormat,
  Sampling,
  TextPart,
  Tool,
  ToolResultPart,
  UserPart,
} from "@interlingua/core-types";
import { parseDataUrl } from "@interlingua/core-types";
import { invalidField, invalidFromZod, invalidRequest } from "@interlingua/errors";
import {
  type ChatAssistantMessage,
  type ChatFileBlock,
  type ChatImageBlock,
  type ChatRequestWire,
  type ChatResponseFormat,
  type ChatTextBlock,
  type ChatTool,
  type ChatUserBlock,
  chatRequestKeys,
  chatRequestSchema,
  defaultToolParameters,
  isChatCustomCall,
  isChatFunctionTool,
} from "./chat-api.js";
import { parseChatCacheControl } from "./chat-cache-control.js";
import { isHttpUrl } from "./chat-data-uri.js";
import {
  checkLegacyFunctions,
  legacyCallIds,
  parseLegacyFunctionChoice,
  parseLegacyFunctions,
  withLegacyCall,
} from "./chat-legacy-functions.js";
import { parseReasoningDetails, withReasoning } from "./chat-reasoning-details.js";
import { parseChatReasoningEffort } from "./map-chat-reasoning-effort.js";
import { isCarriedChatToolChoice, parseChatToolChoice } from "./map-chat-tool-choice.js";
import { parseChatToolCalls } from "./parse-chat-tool-calls.js";

/**
 * A chat-completions request body -> the canonical request. Throws a 400 GatewayError naming the
 * field for anything invalid (never a ZodError or TypeError, whatever `wire` is).
 */
export function parseChatRequest(wire: unknown): Request {
  const result = chatRequestSchema.safeParse(wire);
  if (!result.success) throw invalidFromZod(result.error, "chat request");
  checkChatRequest(result.data);
  checkLegacyFunctions(result.data);
  return chatRequestToCanonical(result.data);
}

/**
 * What the schema does not say and every upstream refuses: a conversation with no message, and
 * history tool-call arguments that are not JSON (no format could carry them on).
 */
function checkChatRequest(wire: ChatRequestWire): void {
  if (wire.messages.length === 0) {
    throw invalidRequest("messages: must hold at least one message", "messages");
  }
  wire.messages.forEach((message, i) => {
    if (message.role !== "assistant") return;
    (message.tool_calls ?? []).forEach((call, j) => {
      // A custom tool's input is free-form text.
      if (isChatCustomCall(call)) return;
      const args = call.function.arguments;
      if (args === "" || isJson(args)) return;
      const param = `messages[${i}].tool_calls[${j}].function.arguments`;
      throw invalidRequest(`${param}: must be JSON text`, param);
    });
  });
}

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** The conversion alone, for a body already validated with `chatRequestSchema`. */
export function chatRequestToCanonical(wire: ChatRequestWire): Request {
  const system: TextPart[] = [];
  const systemAt: number[] = [];
  const messages: Message[] = [];
  // A tool message names its call only by id; the call's name is implied by the assistant turn that
  // made it, and formats that match results by name (native) need it, so it is re-derived here.
  const callNames = new Map<string, string>();
  // Legacy calls and results carry no id: they get stable ones (chat-legacy-functions.ts).
  const legacyIds = legacyCallIds(wire.messages);
  const pushResult = (result: ToolResultPart) => {
    // Consecutive tool messages answer one assistant turn: they form one canonical tool turn.
    const last = messages[messages.length - 1];
    if (last?.role === "tool") last.parts.push(result);
    else messages.push({ role: "tool", parts: [result] });
  };
  wire.messages.forEach((message, i) => {
    switch (message.role) {
      case "system":
      case "developer":
        // Hoisted in order: the canonical model keeps system text apart from the turns, and
        // `systemAt` where each stood.
        if (typeof message.content === "string")
          system.push({ type: "text", text: message.content });
        else for (const block of message.content) system.push(parseTextBlock(block));
        while (systemAt.length < system.length) systemAt.push(messages.length);
        return;
      case "user": {
        const parts: UserPart[] =
          typeof message.content === "string"
            ? [{ type: "text", text: message.content }]
            : message.content.map((block, j) =>
                parseUserBlock(block, ["messages", i, "content", j]),
              );
        messages.push(
          message.name === undefined
            ? { role: "user", parts }
            : { role: "user", parts, name: message.name },
        );
        return;
      }
      case "assistant": {
        const assistant = parseAssistantMessage(message, legacyIds.get(i));
        for (const part of assistant.parts)
          if (part.type === "tool-call") callNames.set(part.id, part.name);
        messages.push(assistant);
        return;
      }
      case "function": {
        pushResult({
          type: "tool-result",
          toolCallId: legacyIds.get(i)!,
          name: message.name,
          content: message.content ? [{ type: "text", text: message.content }] : [],
        });
        return;
      }
      case "tool": {
        const result: ToolResultPart = {
          type: "tool-result",
          toolCallId: message.tool_call_id,
          content:
            typeof message.content === "string"
              ? [{ type: "text", text: message.content }]
              : message.content.map(parseTextBlock),
        };
        const name = callNames.get(message.tool_call_id);
        if (name !== undefined) result.name = name;
        pushResult(result);
        return;
      }
    }
  });

  const request: Request = {
    model: wire.model,
    system,
    messages,
    sampling: parseSampling(wire),
    tools: [...parseLegacyFunctions(wire.functions ?? []), ...parseTools(wire)],
    stream: wire.stream ?? false,
  };
  if (systemAt.some((at) => at > 0)) request.systemAt = systemAt;
  if (wire.tool_choice != null) request.toolChoice = parseChatToolChoice(wire.tool_choice);
  if (wire.function_call != null)
    request.toolChoice = parseLegacyFunctionChoice(wire.function_call);
  if (wire.parallel_tool_calls != null) request.parallelToolCalls = wire.parallel_tool_calls;
  const thinking =
    wire.reasoning_effort == null ? undefined : parseChatReasoningEffort(wire.reasoning_effort);
  if (thinking !== undefined) request.thinking = thinking;
  if (wire.response_format != null)
    request.responseFormat = parseResponseFormat(wire.response_format);
  const includeUsage = wire.stream_options?.include_usage;
  const openai = {
    ...(includeUsage === undefined ? {} : { includeUsage }),
    ...(wire.functions == null ? {} : { legacyFunctions: true }),
  };
  if (Object.keys(openai).length > 0) request.providerExtras = { openai };
  if (wire.user != null) request.user = wire.user;
  if (wire.metadata != null) request.metadata = wire.metadata;
  if (wire.logprobs != null) request.logprobs = wire.logprobs;
  if (wire.top_logprobs != null) request.topLogprobs = wire.top_logprobs;

  const extras = collectExtras(wire, thinking === undefined);
  if (extras !== undefined) request.extras = { chat: extras };
  return request;
}

function parseTextBlock(block: ChatTextBlock): TextPart {
  const part: TextPart = { type: "text", text: block.text };
  if (block.cache_control !== undefined)
    part.cacheControl = parseChatCacheControl(block.cache_control);
  return part;
}

type Path = (string | number)[];

function parseUserBlock(block: ChatUserBlock, path: Path): UserPart {
  switch (block.type) {
    case "text":
      return parseTextBlock(block);
    case "image_url":
      return parseImageBlock(block, path);
    case "file":
      return parseFileBlock(block, path);
    case "input_audio":
      return {
        type: "file",
        source: {
          type: "base64",
          mediaType: `audio/${block.input_audio.format}`,
          data: block.input_audio.data,
        },
      };
  }
}

function parseImageBlock(block: ChatImageBlock, path: Path): ImagePart {
  const url = block.image_url.url;
  let part: ImagePart;
  if (isHttpUrl(url)) {
    part = { type: "image", source: { type: "url", url } };
  } else {
    const data = parseDataUrl(url);
    if (data === undefined) {
      throw invalidField(
        [...path, "image_url", "url"],
        "must be an http(s) URL or a data URI of the form data:<mime>;base64,<data>",
      );
    }
    part = {
      type: "image",
      source: { type: "base64", mediaType: data.mediaType, data: data.data },
    };
  }
  if (block.image_url.detail !== undefined) part.detail = block.image_url.detail;
  if (block.cache_control !== undefined)
    part.cacheControl = parseChatCacheControl(block.cache_control);
  return part;
}

function parseFileBlock(block: ChatFileBlock, path: Path): FilePart {
  const { file_data, file_id, filename } = block.file;
  let part: FilePart;
  if (file_data !== undefined && file_id !== undefined) {
    throw invalidField([...path, "file"], "give either file_data or file_id, not both");
  } else if (file_data !== undefined) {
    const data = parseDataUrl(file_data);
    if (data === undefined) {
      throw invalidField(
        [...path, "file", "file_data"],
        "must be a data URI of the form data:<mime>;base64,<data>",
      );
    }
    part = { type: "file", source: { type: "base64", mediaType: data.mediaType, data: data.data } };
  } else if (file_id !== undefined) {
    part = { type: "file", source: { type: "file-id", fileId: file_id } };
  } else {
    throw invalidField([...path, "file"], "needs file_data or file_id");
  }
  if (filename !== undefined) part.filename = filename;
  if (block.cache_control !== undefined)
    part.cacheControl = parseChatCacheControl(block.cache_control);
  return part;
}

/**
 * Chat has one slot of each kind per assistant turn, so the canonical order is fixed: reasoning,
 * text (content, then any refusal), tool calls. Empty strings carry nothing and make no part.
 * `reasoning_details` / `thinking_blocks`, when given, are the reasoning (with its signatures)
 * and put each signature back on the part it came from.
 */
function parseAssistantMessage(
  message: ChatAssistantMessage,
  legacyId: string | undefined,
): AssistantMessage {
  const texts: TextPart[] = [];
  const content = message.content;
  if (typeof content === "string") {
    if (content !== "") texts.push({ type: "text", text: content });
  } else if (content) {
    for (const block of content) {
      texts.push(
        block.type === "text" ? parseTextBlock(block) : { type: "text", text: block.refusal },
      );
    }
  }
  if (message.refusal) texts.push({ type: "text", text: message.refusal });
  const calls = parseChatToolCalls(
    withLegacyCall(message.tool_calls, message.function_call, legacyId),
  );
  const reasoning = parseReasoningDetails(message.reasoning_details, message.thinking_blocks);
  const parts = withReasoning(reasoning, message.reasoning_content, texts, calls);
  return message.name === undefined
    ? { role: "assistant", parts }
    : { role: "assistant", parts, name: message.name };
}

function parseSampling(wire: ChatRequestWire): Sampling {
  const sampling: Sampling = {};
  if (wire.temperature != null) sampling.temperature = wire.temperature;
  if (wire.top_p != null) sampling.topP = wire.top_p;
  const maxTokens = wire.max_completion_tokens ?? wire.max_tokens;
  if (maxTokens != null) sampling.maxTokens = maxTokens;
  if (wire.stop != null)
    sampling.stop = typeof wire.stop === "string" ? [wire.stop] : [...wire.stop];
  if (wire.frequency_penalty != null) sampling.frequencyPenalty = wire.frequency_penalty;
  if (wire.presence_penalty != null) sampling.presencePenalty = wire.presence_penalty;
  if (wire.seed != null) sampling.seed = wire.seed;
  if (wire.n != null) sampling.n = wire.n;
  return sampling;
}

function parseTools(wire: ChatRequestWire): Tool[] {
  const tools: Tool[] = (wire.tools ?? []).map((tool: ChatTool): Tool => {
    if (isChatFunctionTool(tool)) {
      const fn = tool.function;
      const out: Tool = {
        type: "function",
        name: fn.name,
        // No parameters means a function without arguments; canonical tools always carry a schema.
        parameters: fn.parameters ?? defaultToolParameters(),
      };
      if (fn.description !== undefined) out.description = fn.description;
      if (fn.strict != null) out.strict = fn.strict;
      return out;
    }
    const { type, ...options } = tool;
    // Chat nests a custom tool's fields under `custom`; canonically they sit flat, as the
    // Responses API sends them, so both lower and lift alike (core-types client-tools.ts).
    const custom = type === "custom" && Object.keys(options).length === 1 && options["custom"];
    const flat =
      typeof custom === "object" && custom !== null && !Array.isArray(custom)
        ? (custom as Record<string, unknown>)
        : options;
    return { type: "provider", provider: "openai", name: type, options: flat };
  });
  if (wire.web_search_options != null) {
    tools.push({ type: "web_search", options: wire.web_search_options });
  }
  return tools;
}

function parseResponseFormat(format: ChatResponseFormat): ResponseFormat {
  switch (format.type) {
    case "text":
      return { type: "text" };
    case "json_object":
      return { type: "json-object" };
    case "json_schema": {
      const spec = format.json_schema;
      const out: ResponseFormat = {
        type: "json-schema",
        name: spec.name,
        schema: spec.schema ?? {},
      };
      if (spec.strict != null) out.strict = spec.strict;
      return out;
    }
  }
}

/**
 * Fields the canonical model does not interpret, kept for same-format round trips: unknown
 * top-level fields, `max_tokens` when `max_completion_tokens` is also given (the canonical value
 * is the latter), and a `reasoning_effort` level the canonical model has no name for.
 */
function collectExtras(
  wire: ChatRequestWire,
  keepReasoningEffort: boolean,
): Record<string, unknown> | undefined {
  const extras: Record<string, unknown> = {};
  let found = false;
  for (const key in wire) {
    if (!chatRequestKeys.has(key)) {
      extras[key] = wire[key];
      found = true;
    }
  }
  if (wire.max_tokens != null && wire.max_completion_tokens != null) {
    extras.max_tokens = wire.max_tokens;
    found = true;
  }
  // A choice the canonical one only approximates stays as given for an OpenAI upstream.
  if (wire.tool_choice != null && isCarriedChatToolChoice(wire.tool_choice)) {
    extras.tool_choice = wire.tool_choice;
    found = true;
  }
  if (keepReasoningEffort && wire.reasoning_effort != null) {
    extras.reasoning_effort = wire.reasoning_effort;
    found = true;
  }
  return found ? extras : undefined;
}
