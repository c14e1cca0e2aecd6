import {
  type AssistantMessage,
  base64ToText,
  customToolNames,
  type FilePart,
  formatDataUrl,
  type ImagePart,
  isOpenApiDialect,
  type JsonObject,
  openApiToJsonSchema,
  placeholderFileName,
  type RenderOptions,
  type Request,
  type ResponseFormat,
  type TextPart,
  type Tool,
  type ToolMessage,
  type UserMessage,
  type UserPart,
  type Warning,
  warnDocumentFields,
  warnMovedSystem,
} from "@interlingua/core-types";
import { invalidRequest } from "@interlingua/errors";
import type {
  ChatAnyToolCall,
  ChatAssistantMessage,
  ChatFileBlock,
  ChatFunctionMessage,
  ChatImageBlock,
  ChatMessage,
  ChatRequestWire,
  ChatResponseFormat,
  ChatTextBlock,
  ChatTool,
  ChatToolCall,
  ChatToolMessage,
  ChatUserBlock,
  ChatUserMessage,
} from "./chat-api.js";
import { renderChatCacheControl } from "./chat-cache-control.js";
import { toLegacyFunctions } from "./chat-legacy-functions.js";
import { renderChatReasoningEffort } from "./map-chat-reasoning-effort.js";
import { renderChatToolChoice } from "./map-chat-tool-choice.js";
import { renderChatToolCall } from "./parse-chat-tool-calls.js";

export interface ChatRenderOptions extends RenderOptions {
  /**
   * The field that carries `sampling.maxTokens`. Default `max_completion_tokens`: OpenAI's current
   * name, and the only one its reasoning models accept. DeepSeek and older OpenAI-compatible
   * servers read only `max_tokens`; a gateway channel for them sets this.
   */
  maxTokensField?: "max_completion_tokens" | "max_tokens";
}

/** The most stop sequences a chat request may carry. */
export const chatMaxStopSequences = 4;

type Warn = (warning: Warning) => void;
const ignore: Warn = () => {};

/**
 * The canonical request -> a chat-completions body. Streaming requests always ask for the usage
 * chunk (`stream_options.include_usage`): the gateway bills from it, whatever the client asked;
 * the client's own choice stays in `request.providerExtras.openai.includeUsage` for the stream
 * encoder.
 */
export function renderChatRequest(request: Request, options?: ChatRenderOptions): ChatRequestWire {
  const warn = options?.onWarning ?? ignore;
  warnMovedSystem(request, warn);
  const legacy = request.providerExtras?.openai?.legacyFunctions === true;
  const out: ChatRequestWire = {
    ...request.extras?.chat,
    model: request.model,
    messages: renderMessages(request, warn, legacy),
  };
  const s = request.sampling;
  if (s.temperature !== undefined) out.temperature = s.temperature;
  if (s.topP !== undefined) out.top_p = s.topP;
  if (s.maxTokens !== undefined)
    out[options?.maxTokensField ?? "max_completion_tokens"] = s.maxTokens;
  if (s.stop !== undefined) {
    if (s.stop.length > chatMaxStopSequences) {
      throw invalidRequest(
        `sampling.stop: the chat format accepts at most ${chatMaxStopSequences} stop sequences, got ${s.stop.length}`,
        "stop",
      );
    }
    out.stop = [...s.stop];
  }
  if (s.frequencyPenalty !== undefined) out.frequency_penalty = s.frequencyPenalty;
  if (s.presencePenalty !== undefined) out.presence_penalty = s.presencePenalty;
  if (s.seed !== undefined) out.seed = s.seed;
  if (s.n !== undefined) out.n = s.n;
  if (s.topK !== undefined) {
    warn({ type: "dropped", feature: "sampling.topK", message: "chat has no top_k" });
  }

  renderTools(request, out, warn);
  // A choice kept as given in extras (allowed_tools, ...) already stands.
  if (request.toolChoice !== undefined && request.extras?.chat?.["tool_choice"] === undefined) {
    out.tool_choice = renderChatToolChoice(request.toolChoice, customToolNames(request.tools));
  }
  // The client's deprecated function calling goes back as it came (chat-legacy-functions.ts).
  if (legacy) toLegacyFunctions(out, warn);
  if (request.parallelToolCalls !== undefined) out.parallel_tool_calls = request.parallelToolCalls;
  if (request.thinking !== undefined) {
    const effort = renderChatReasoningEffort(request.thinking, options);
    if (effort !== undefined) out.reasoning_effort = effort;
  }
  if (request.responseFormat !== undefined) {
    out.response_format = renderResponseFormat(request.responseFormat, warn);
  }
  if (request.stream) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  if (request.user !== undefined) out.user = request.user;
  if (request.metadata !== undefined) out.metadata = request.metadata;
  if (request.logprobs !== undefined) out.logprobs = request.logprobs;
  if (request.topLogprobs !== undefined) out.top_logprobs = request.topLogprobs;
  if (request.providerExtras?.gemini?.cachedContent !== undefined) {
    warn({
      type: "dropped",
      feature: "cachedContent",
      message: "chat upstreams have no named cache resources",
    });
  }
  if (request.providerExtras?.gemini?.safetySettings !== undefined) {
    warn({ type: "dropped", feature: "safetySettings", message: "chat has no safety settings" });
  }
  return out;
}

function renderMessages(request: Request, warn: Warn, legacy: boolean): ChatMessage[] {
  const out: ChatMessage[] = [];
  const callNames = new Map<string, string>();
  request.system.forEach((part, k) => {
    // One system message per part keeps several system messages apart, in order.
    out.push({ role: "system", content: textContent(part, `system[${k}]`, warn) });
  });
  request.messages.forEach((message, i) => {
    const at = `messages[${i}]`;
    switch (message.role) {
      case "user":
        out.push(renderUserMessage(message, at, warn));
        return;
      case "assistant":
        for (const part of message.parts)
          if (part.type === "tool-call") callNames.set(part.id, part.name);
        out.push(renderAssistantMessage(message, at, warn, legacy));
        return;
      case "tool":
        out.push(
          ...(legacy
            ? renderFunctionMessages(message, at, warn, callNames)
            : renderToolMessages(message, at, warn, callNames)),
        );
        if (!legacy) out.push(...toolImagesMessage(message, at, warn));
        return;
    }
  });
  return out;
}

/** A lone text part without a cache boundary is a plain string, as clients write it. */
function textContent(part: TextPart, at: string, warn: Warn): string | ChatTextBlock[] {
  dropSignature(part, at, warn);
  return part.cacheControl === undefined ? part.text : [textBlock(part, at, warn)];
}

function textBlock(part: TextPart, at: string, warn: Warn): ChatTextBlock {
  dropSignature(part, at, warn);
  const block: ChatTextBlock = { type: "text", text: part.text };
  if (part.cacheControl !== undefined)
    block.cache_control = renderChatCacheControl(part.cacheControl);
  return block;
}

function dropSignature(part: { signature?: string }, at: string, warn: Warn): void {
  if (part.signature !== undefined) {
    warn({
      type: "dropped",
      feature: `${at}.signature`,
      message: "chat cannot carry part signatures",
    });
  }
}

function renderUserMessage(message: UserMessage, at: string, warn: Warn): ChatUserMessage {
  const [only] = message.parts;
  const content =
    message.parts.length === 1 && only?.type === "text" && only.cacheControl === undefined
      ? textContent(only, `${at}.parts[0]`, warn)
      : message.parts.map((part, j) => userBlock(part, `${at}.parts[${j}]`, warn));
  const out: ChatUserMessage = { role: "user", content };
  if (message.name !== undefined) out.name = message.name;
  return out;
}

/** Audio formats chat's `input_audio` takes, by media type. */
const chatAudioFormats: Readonly<Record<string, string>> = {
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/mp3": "mp3",
  "audio/mpeg": "mp3",
};

function userBlock(part: UserPart, at: string, warn: Warn): ChatUserBlock {
  if (part.type === "text") return textBlock(part, at, warn);
  if (part.type === "image") return imageBlock(part);
  const format =
    part.source.type === "base64" ? chatAudioFormats[part.source.mediaType] : undefined;
  if (format !== undefined && part.source.type === "base64" && part.cacheControl === undefined) {
    return { type: "input_audio", input_audio: { data: part.source.data, format } };
  }
  return fileBlock(part, at, warn);
}

function imageBlock(part: ImagePart): ChatImageBlock {
  const url = part.source.type === "url" ? part.source.url : formatDataUrl(part.source);
  const block: ChatImageBlock = {
    type: "image_url",
    image_url: part.detail === undefined ? { url } : { url, detail: part.detail },
  };
  if (part.cacheControl !== undefined)
    block.cache_control = renderChatCacheControl(part.cacheControl);
  return block;
}

/**
 * OpenAI's chat file input takes PDFs only (it answers 400 for any other type), so an image file
 * goes as an image, a text file as its text, and any other type is refused here, naming the
 * part, before the call.
 */
function fileBlock(
  part: FilePart,
  at: string,
  warn: Warn,
): ChatFileBlock | ChatImageBlock | ChatTextBlock {
  warnDocumentFields(part, at, warn);
  const source = part.source;
  if (source.type === "url") {
    throw invalidRequest(
      `${at}.source: chat carries files as base64 file_data or a file_id, not by URL`,
      `${at}.source`,
    );
  }
  if (source.type === "base64" && source.mediaType.startsWith("image/")) {
    warn({
      type: "mapped",
      feature: "parts.file",
      message: `${at}: an image file is sent as an image`,
    });
    return imageBlock({ type: "image", source });
  }
  // A text document (Anthropic's plain-text source, a Gemini text/* part) goes as its text.
  const text =
    source.type === "base64" && source.mediaType.startsWith("text/")
      ? base64ToText(source.data)
      : undefined;
  if (text !== undefined) {
    warn({
      type: "mapped",
      feature: "parts.file",
      message: `${at}: a ${source.type === "base64" ? source.mediaType : "text"} file is sent as its text, without its filename`,
    });
    const block: ChatTextBlock = { type: "text", text };
    if (part.cacheControl !== undefined)
      block.cache_control = renderChatCacheControl(part.cacheControl);
    return block;
  }
  if (source.type === "base64" && source.mediaType !== "application/pdf") {
    throw invalidRequest(
      `${at}.source.mediaType: the chat protocol (OpenAI) takes PDF files only, not ${source.mediaType}`,
      `${at}.source.mediaType`,
    );
  }
  const file: ChatFileBlock["file"] =
    source.type === "base64" ? { file_data: formatDataUrl(source) } : { file_id: source.fileId };
  if (part.filename !== undefined) file.filename = part.filename;
  // OpenAI refuses file_data without a filename ("Missing required parameter").
  else if (source.type === "base64") file.filename = placeholderFileName(source.mediaType);
  const block: ChatFileBlock = { type: "file", file };
  if (part.cacheControl !== undefined)
    block.cache_control = renderChatCacheControl(part.cacheControl);
  return block;
}

/**
 * Chat has one reasoning string, one content and one tool_calls list per assistant turn, so the
 * parts are gathered by kind (their interleaving is not kept). With no text, content is "": the
 * one value every chat upstream accepts with or without tool calls.
 */
function renderAssistantMessage(
  message: AssistantMessage,
  at: string,
  warn: Warn,
  legacy: boolean,
): ChatAssistantMessage {
  const reasoning: string[] = [];
  const texts: TextPart[] = [];
  const calls: ChatAnyToolCall[] = [];
  message.parts.forEach((part, j) => {
    const partAt = `${at}.parts[${j}]`;
    switch (part.type) {
      case "thinking":
        dropSignature(part, partAt, warn);
        reasoning.push(part.text);
        return;
      case "text":
        if (part.citations !== undefined) {
          warn({
            type: "dropped",
            feature: `${partAt}.citations`,
            message: "chat request messages have no annotations",
          });
        }
        texts.push(part);
        return;
      case "tool-call":
        dropSignature(part, partAt, warn);
        if (part.cacheControl !== undefined) {
          warn({
            type: "dropped",
            feature: `${partAt}.cacheControl`,
            message: "chat tool calls cannot carry a cache boundary",
          });
        }
        calls.push(renderChatToolCall(part));
        return;
      case "redacted-thinking":
      case "image":
      case "file":
        warn({
          type: "dropped",
          feature: `${partAt}`,
          message: `chat assistant turns cannot carry ${part.type} parts`,
        });
        return;
    }
  });
  if (reasoning.length > 1) {
    warn({
      type: "mapped",
      feature: `${at}.parts.thinking`,
      message: "several thinking parts were joined into one reasoning_content",
    });
  }
  const [only] = texts;
  const content: string | ChatTextBlock[] =
    texts.length === 0
      ? ""
      : texts.length === 1 && only !== undefined && only.cacheControl === undefined
        ? textContent(only, `${at}.parts.text`, warn)
        : texts.map((part) => textBlock(part, `${at}.parts.text`, warn));
  const out: ChatAssistantMessage = { role: "assistant", content };
  if (reasoning.length > 0) out.reasoning_content = reasoning.join("");
  if (legacy && calls.length > 1) {
    throw invalidRequest(
      `${at}.parts: a turn of the deprecated functions interface makes one call, not ${calls.length}`,
      `${at}.parts`,
    );
  }
  // The functions interface has no custom tools, so its one call is a function's.
  if (legacy && calls[0] !== undefined)
    out.function_call = { ...(calls[0] as ChatToolCall).function };
  else if (calls.length > 0) out.tool_calls = calls;
  if (message.name !== undefined) out.name = message.name;
  return out;
}

/** Legacy results answer by function name: the result's own, else its call's. */
function renderFunctionMessages(
  message: ToolMessage,
  at: string,
  warn: Warn,
  callNames: ReadonlyMap<string, string>,
): ChatFunctionMessage[] {
  return message.parts.map((part, j) => {
    const partAt = `${at}.parts[${j}]`;
    const name = part.name ?? callNames.get(part.toolCallId);
    if (name === undefined) {
      throw invalidRequest(
        `${partAt}.name: the result for ${part.toolCallId} names no function and no earlier call has that id`,
        `${partAt}.name`,
      );
    }
    if (part.isError !== undefined) {
      warn({
        type: "dropped",
        feature: `${partAt}.isError`,
        message: "function results have no error flag",
      });
    }
    const texts: string[] = [];
    part.content.forEach((item, k) => {
      if (item.type === "text" && item.cacheControl === undefined && item.signature === undefined) {
        texts.push(item.text);
        return;
      }
      if (item.type === "text") texts.push(item.text);
      warn({
        type: "dropped",
        feature: `${partAt}.content[${k}]`,
        message: "function results carry plain text only",
      });
    });
    if (part.cacheControl !== undefined) {
      warn({
        type: "dropped",
        feature: `${partAt}.cacheControl`,
        message: "function results cannot carry a cache boundary",
      });
    }
    return { role: "function", name, content: texts.join("") };
  });
}

/**
 * One tool message per result: chat answers each tool call in its own message. A result's name
 * is its call's (`callNames`) or lost: a reader derives it from the call with that id.
 */
function renderToolMessages(
  message: ToolMessage,
  at: string,
  warn: Warn,
  callNames: ReadonlyMap<string, string>,
): ChatToolMessage[] {
  return message.parts.map((part, j) => {
    const partAt = `${at}.parts[${j}]`;
    if (part.isError !== undefined) {
      warn({
        type: "dropped",
        feature: `${partAt}.isError`,
        message: "chat tool results have no error flag",
      });
    }
    if (part.name !== undefined && part.name !== callNames.get(part.toolCallId)) {
      warn({
        type: "dropped",
        feature: `${partAt}.name`,
        message: "chat tool results are matched by tool_call_id only",
      });
    }
    // Images go in a user message after the results (toolImagesMessage).
    const texts = part.content.filter((item): item is TextPart => item.type === "text");
    const [only] = texts;
    let content: string | ChatTextBlock[] =
      texts.length === 0
        ? ""
        : texts.length === 1 && only !== undefined && only.cacheControl === undefined
          ? textContent(only, `${partAt}.content`, warn)
          : texts.map((item) => textBlock(item, `${partAt}.content`, warn));
    if (part.cacheControl !== undefined) {
      // The boundary sits on the result's last block, which marks the same cached prefix.
      if (typeof content === "string")
        content = content === "" ? [] : [{ type: "text", text: content }];
      const last = content[content.length - 1];
      if (last === undefined) {
        warn({
          type: "dropped",
          feature: `${partAt}.cacheControl`,
          message: "an empty tool result cannot carry a cache boundary in chat",
        });
        content = "";
      } else {
        last.cache_control = renderChatCacheControl(part.cacheControl);
        warn({
          type: "mapped",
          feature: `${partAt}.cacheControl`,
          message: "the tool result's cache boundary was put on its last content block",
        });
      }
    }
    return { role: "tool", tool_call_id: part.toolCallId, content };
  });
}

/**
 * Chat tool messages carry text only, so the images tool results return (a screenshot, a chart)
 * follow the results in one user message, each after a line naming its call: the model still
 * sees them, next to the call that produced them.
 */
function toolImagesMessage(message: ToolMessage, at: string, warn: Warn): ChatUserMessage[] {
  const content: ChatUserBlock[] = [];
  message.parts.forEach((part, j) => {
    part.content.forEach((item, k) => {
      if (item.type !== "image") return;
      warn({
        type: "mapped",
        feature: `${at}.parts[${j}].content[${k}]`,
        message: "chat tool results carry text only; the image follows in a user message",
      });
      content.push({ type: "text", text: `Image from tool call ${part.toolCallId}:` });
      content.push(imageBlock(item));
    });
  });
  return content.length === 0 ? [] : [{ role: "user", content }];
}

function renderTools(request: Request, out: ChatRequestWire, warn: Warn): void {
  const tools: ChatTool[] = [];
  let searchSeen = false;
  request.tools.forEach((tool: Tool, k) => {
    const at = `tools[${k}]`;
    switch (tool.type) {
      case "function": {
        const fn: Extract<ChatTool, { type: "function" }>["function"] = {
          name: tool.name,
          parameters: jsonSchemaOf(tool.parameters, `${at}.parameters`, warn),
        };
        if (tool.description !== undefined) fn.description = tool.description;
        if (tool.strict !== undefined) fn.strict = tool.strict;
        if (tool.cacheControl !== undefined) {
          warn({
            type: "dropped",
            feature: `${at}.cacheControl`,
            message: "chat tool definitions cannot carry a cache boundary",
          });
        }
        tools.push({ type: "function", function: fn });
        return;
      }
      case "web_search":
        // Chat's search models take their options at the top level, once.
        if (searchSeen) {
          warn({ type: "dropped", feature: at, message: "chat takes one web_search_options" });
          return;
        }
        searchSeen = true;
        out.web_search_options = tool.options ?? {};
        return;
      case "provider":
        if (tool.provider === "openai") {
          // A custom tool's fields sit flat canonically; chat nests them under `custom`.
          tools.push(
            tool.name === "custom" && !("custom" in tool.options)
              ? { type: "custom", custom: tool.options }
              : { ...tool.options, type: tool.name },
          );
          return;
        }
        throw invalidRequest(
          `${at}: the ${tool.provider} tool "${tool.name}" cannot be sent to a chat upstream`,
          at,
        );
      case "file_search":
      case "remote_mcp":
        throw invalidRequest(`${at}: chat upstreams cannot run ${tool.type} tools`, at);
    }
  });
  if (tools.length > 0) out.tools = tools;
}

function renderResponseFormat(format: ResponseFormat, warn: Warn): ChatResponseFormat {
  switch (format.type) {
    case "text":
      return { type: "text" };
    case "json-object":
      return { type: "json_object" };
    case "json-schema": {
      if (format.name === undefined) {
        warn({
          type: "mapped",
          feature: "responseFormat.name",
          message: 'chat requires a json_schema name; "response" was used',
        });
      }
      const spec: Extract<ChatResponseFormat, { type: "json_schema" }>["json_schema"] = {
        name: format.name ?? "response",
        schema: jsonSchemaOf(format.schema, "responseFormat.schema", warn),
      };
      if (format.strict !== undefined) spec.strict = format.strict;
      return { type: "json_schema", json_schema: spec };
    }
  }
}

/** A schema in Gemini's dialect (from a native client) as the JSON Schema chat upstreams read. */
function jsonSchemaOf(schema: JsonObject, feature: string, warn: Warn): JsonObject {
  if (!isOpenApiDialect(schema)) return schema;
  warn({
    type: "mapped",
    feature,
    message: "Gemini's schema dialect was converted to JSON Schema",
  });
  return openApiToJsonSchema(schema);
}
