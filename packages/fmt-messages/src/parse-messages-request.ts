import {
  type AssistantPart,
  type FilePart,
  type ImagePart,
  type Message,
  type Request,
  type Sampling,
  stringifyJsonKeepingNumbers,
  type TextPart,
  type ThinkingConfig,
  type ThinkingEffort,
  type Tool,
  type ToolResultContent,
  type ToolResultPart,
  textToBase64,
  type UserPart,
} from "@interlingua/core-types";
import { invalidFromZod, invalidRequest } from "@interlingua/errors";
import { liftCarriedSignatures } from "./carried-signatures.js";
import { parseMessagesToolChoice } from "./map-messages-tool-choice.js";
import {
  type MessagesContentBlock,
  type MessagesDocumentBlock,
  type MessagesImageBlock,
  type MessagesRequestWire,
  type MessagesTextBlock,
  type MessagesThinkingConfig,
  type MessagesTool,
  type MessagesToolResultBlock,
  messagesRequestKnownKeys,
  messagesRequestSchema,
} from "./messages-api.js";
import { fromMessagesCacheControl } from "./messages-cache-control.js";
import { MESSAGES_EXTRAS, MESSAGES_SHAPE_EXTRAS } from "./messages-extras.js";
import { parseOutputFormat } from "./parse-output-format.js";
import { signatureOf } from "./unsigned-thinking.js";

const KNOWN_KEYS: ReadonlySet<string> = new Set(messagesRequestKnownKeys);

/** `display` on the thinking config <-> canonical includeThoughts. */
export const THINKING_DISPLAY_TO_INCLUDE = { summarized: true, omitted: false } as const;

/** output_config.effort values the canonical effort can hold. */
const EFFORTS: ReadonlySet<string> = new Set<ThinkingEffort>(["low", "medium", "high"]);

/**
 * A messages-format request -> canonical. Throws a 400 GatewayError naming the field on invalid
 * input. Each wire user turn becomes a canonical `tool` message (its tool_result blocks) followed
 * by a `user` message (everything else); tool results learn their tool's name from the matching
 * tool_use earlier in the conversation.
 */
export function parseMessagesRequest(wire: unknown): Request {
  const parsed = messagesRequestSchema.safeParse(wire);
  if (!parsed.success) throw invalidFromZod(parsed.error, "messages request");
  const w = parsed.data;

  const request: Request = {
    model: w.model,
    system: [...parseSystem(w.system), ...midConversationSystem(w.messages)],
    messages: parseMessages(w.messages),
    sampling: parseSampling(w),
    tools: (w.tools ?? []).map(parseTool),
    stream: w.stream ?? false,
  };
  if (w.tool_choice) {
    const { toolChoice, parallelToolCalls } = parseMessagesToolChoice(w.tool_choice);
    request.toolChoice = toolChoice;
    if (parallelToolCalls !== undefined) request.parallelToolCalls = parallelToolCalls;
  }

  const extras: Record<string, unknown> = {};
  for (const key of Object.keys(w)) {
    if (!KNOWN_KEYS.has(key)) extras[key] = w[key];
  }
  if (w.thinking) request.thinking = parseThinking(w.thinking, extras);
  parseOutputFormat(extras, request);

  if (w.metadata) {
    const { user_id, ...rest } = w.metadata;
    if (typeof user_id === "string") request.user = user_id;
    if (Object.keys(rest).length > 0) request.metadata = rest;
  }

  const bags: NonNullable<Request["extras"]> = {};
  if (Object.keys(extras).length > 0) bags[MESSAGES_EXTRAS] = extras;
  const shape: Record<string, string> = {};
  if (typeof w.system === "string") shape["system"] = "string";
  // The client's own effort goes back as sent, whatever the model (the table is for translations).
  if (request.thinking?.effort !== undefined) shape["effort"] = "sent";
  if (Object.keys(shape).length > 0) bags[MESSAGES_SHAPE_EXTRAS] = shape;
  if (Object.keys(bags).length > 0) request.extras = bags;
  return request;
}

function parseSystem(system: MessagesRequestWire["system"]): TextPart[] {
  if (system === undefined) return [];
  if (typeof system === "string") return [{ type: "text", text: system }];
  return system.map(parseText);
}

function parseSampling(w: MessagesRequestWire): Sampling {
  const sampling: Sampling = { maxTokens: w.max_tokens };
  if (w.temperature !== undefined) sampling.temperature = w.temperature;
  if (w.top_p !== undefined) sampling.topP = w.top_p;
  if (w.top_k !== undefined) sampling.topK = w.top_k;
  if (w.stop_sequences !== undefined) sampling.stop = w.stop_sequences;
  return sampling;
}

/**
 * System messages inside `messages` (Anthropic takes them; Claude Code sends its environment so)
 * join the system text, in order: the canonical model has one system prompt. A messages upstream
 * on the fast path still gets them where they stood.
 */
function midConversationSystem(wire: MessagesRequestWire["messages"]): TextPart[] {
  const parts: TextPart[] = [];
  wire.forEach((message, i) => {
    if (message.role !== "system") return;
    if (typeof message.content === "string") {
      parts.push({ type: "text", text: message.content });
      return;
    }
    message.content.forEach((block, j) => {
      if (block.type !== "text") {
        throw invalidRequest(
          `messages[${i}].content[${j}]: a system message holds text blocks only`,
          `messages[${i}].content[${j}]`,
        );
      }
      parts.push(parseText(block));
    });
  });
  return parts;
}

function parseMessages(wire: MessagesRequestWire["messages"]): Message[] {
  const messages: Message[] = [];
  const toolNames = new Map<string, string>();
  wire.forEach((message, i) => {
    if (message.role === "system") return;
    const blocks: MessagesContentBlock[] =
      typeof message.content === "string"
        ? [{ type: "text", text: message.content }]
        : message.content;
    if (message.role === "assistant") {
      const parts = liftCarriedSignatures(
        blocks.map((block, j) => parseAssistantBlock(block, `messages[${i}].content[${j}]`)),
      );
      for (const part of parts) if (part.type === "tool-call") toolNames.set(part.id, part.name);
      messages.push({ role: "assistant", parts });
      return;
    }
    const results: ToolResultPart[] = [];
    const parts: UserPart[] = [];
    blocks.forEach((block, j) => {
      if (block.type === "tool_result") results.push(parseToolResult(block, toolNames));
      else parts.push(parseUserBlock(block, `messages[${i}].content[${j}]`));
    });
    if (results.length > 0) messages.push({ role: "tool", parts: results });
    if (parts.length > 0 || results.length === 0) messages.push({ role: "user", parts });
  });
  return messages;
}

function misplaced(block: MessagesContentBlock, path: string, role: string): never {
  throw invalidRequest(`${path}: a ${block.type} block cannot appear in a ${role} message`, path);
}

function parseUserBlock(block: MessagesContentBlock, path: string): UserPart {
  switch (block.type) {
    case "text":
      return parseText(block);
    case "image":
      return parseImage(block);
    case "document":
      return parseDocument(block);
    default:
      return misplaced(block, path, "user");
  }
}

function parseAssistantBlock(block: MessagesContentBlock, path: string): AssistantPart {
  switch (block.type) {
    case "text":
      return parseText(block);
    case "image":
      return parseImage(block);
    case "document":
      return parseDocument(block);
    case "tool_use": {
      const part: AssistantPart = {
        type: "tool-call",
        id: block.id,
        name: block.name,
        arguments: stringifyJsonKeepingNumbers(block.input),
      };
      const cacheControl = fromMessagesCacheControl(block.cache_control);
      if (cacheControl) part.cacheControl = cacheControl;
      return part;
    }
    case "thinking":
      // An empty signature is the stream's placeholder, not a signature: never carry it as one.
      return signatureOf(block.signature)
        ? { type: "thinking", text: block.thinking, signature: block.signature as string }
        : { type: "thinking", text: block.thinking };
    case "redacted_thinking":
      return { type: "redacted-thinking", data: block.data };
    case "tool_result":
      return misplaced(block, path, "assistant");
  }
}

export function parseText(block: MessagesTextBlock): TextPart {
  const part: TextPart = { type: "text", text: block.text };
  const cacheControl = fromMessagesCacheControl(block.cache_control);
  if (cacheControl) part.cacheControl = cacheControl;
  return part;
}

function parseImage(block: MessagesImageBlock): ImagePart {
  const part: ImagePart = {
    type: "image",
    source:
      block.source.type === "url"
        ? { type: "url", url: block.source.url }
        : { type: "base64", mediaType: block.source.media_type, data: block.source.data },
  };
  const cacheControl = fromMessagesCacheControl(block.cache_control);
  if (cacheControl) part.cacheControl = cacheControl;
  return part;
}

function parseDocument(block: MessagesDocumentBlock): FilePart {
  const source = block.source;
  let part: FilePart;
  switch (source.type) {
    case "base64":
      part = {
        type: "file",
        source: { type: "base64", mediaType: source.media_type, data: source.data },
      };
      break;
    case "url":
      part = { type: "file", source: { type: "url", url: source.url } };
      break;
    case "text":
      // Plain-text documents travel as base64 text/plain files; render turns them back.
      part = {
        type: "file",
        source: { type: "base64", mediaType: "text/plain", data: textToBase64(source.data) },
      };
      break;
    case "file":
      part = { type: "file", source: { type: "file-id", fileId: source.file_id } };
      break;
  }
  if (typeof block.title === "string") part.filename = block.title;
  if (typeof block.context === "string") part.context = block.context;
  if (typeof block.citations?.enabled === "boolean") part.citations = block.citations.enabled;
  const cacheControl = fromMessagesCacheControl(block.cache_control);
  if (cacheControl) part.cacheControl = cacheControl;
  return part;
}

function parseToolResult(
  block: MessagesToolResultBlock,
  toolNames: ReadonlyMap<string, string>,
): ToolResultPart {
  let content: ToolResultContent[];
  if (block.content === undefined || block.content === "") content = [];
  else if (typeof block.content === "string") content = [{ type: "text", text: block.content }];
  else content = block.content.map((c) => (c.type === "text" ? parseText(c) : parseImage(c)));
  const part: ToolResultPart = { type: "tool-result", toolCallId: block.tool_use_id, content };
  const name = toolNames.get(block.tool_use_id);
  if (name !== undefined) part.name = name;
  if (typeof block.is_error === "boolean") part.isError = block.is_error;
  const cacheControl = fromMessagesCacheControl(block.cache_control);
  if (cacheControl) part.cacheControl = cacheControl;
  return part;
}

function parseTool(tool: MessagesTool): Tool {
  if (tool.type === undefined || tool.type === "custom") {
    const custom = tool as Extract<MessagesTool, { input_schema: unknown }>;
    const out: Tool = { type: "function", name: custom.name, parameters: custom.input_schema };
    if (custom.description !== undefined) out.description = custom.description;
    if (custom.strict !== undefined) out.strict = custom.strict;
    const cacheControl = fromMessagesCacheControl(custom.cache_control);
    if (cacheControl) out.cacheControl = cacheControl;
    return out;
  }
  const { type, ...options } = tool;
  return { type: "provider", provider: "anthropic", name: type, options };
}

/**
 * The thinking config, plus `output_config.effort` (Anthropic's effort control) when it is one of
 * the canonical efforts: it then leaves the extras and becomes `thinking.effort`.
 */
function parseThinking(
  thinking: MessagesThinkingConfig,
  extras: Record<string, unknown>,
): ThinkingConfig {
  const out: ThinkingConfig = { type: thinking.type };
  if (thinking.type === "enabled") out.budgetTokens = thinking.budget_tokens;
  if (thinking.type !== "disabled" && thinking.display !== undefined) {
    out.includeThoughts = THINKING_DISPLAY_TO_INCLUDE[thinking.display];
  }
  const config = extras["output_config"];
  // Effort means nothing with thinking disabled; it then stays an untouched extra.
  if (
    thinking.type !== "disabled" &&
    config &&
    typeof config === "object" &&
    !Array.isArray(config)
  ) {
    const { effort, ...rest } = config as Record<string, unknown>;
    if (typeof effort === "string" && EFFORTS.has(effort)) {
      out.effort = effort as ThinkingEffort;
      if (Object.keys(rest).length > 0) extras["output_config"] = rest;
      else delete extras["output_config"];
    }
  }
  return out;
}
