import {
  type AssistantPart,
  addFields,
  base64ToText,
  type FilePart,
  type ImagePart,
  isOpenApiDialect,
  type JsonObject,
  openApiToJsonSchema,
  parseDataUrl,
  parseJsonKeepingNumbers,
  type RenderOptions,
  type Request,
  restoreMovedThinkingSignature,
  type TextPart,
  type ThinkingConfig,
  type Tool,
  type ToolCallPart,
  type ToolResultPart,
  type UserPart,
  type Warning,
  warnLogprobsRequest,
  warnMovedSystem,
} from "@interlingua/core-types";
import { invalidRequest } from "@interlingua/errors";
import { derivedThinkingBudget, fitThinkingConstraints } from "./fit-thinking-constraints.js";
import { renderMessagesToolChoice } from "./map-messages-tool-choice.js";
import type {
  MessagesContentBlock,
  MessagesDocumentBlock,
  MessagesImageBlock,
  MessagesMessage,
  MessagesRequestWire,
  MessagesTextBlock,
  MessagesThinkingConfig,
  MessagesTool,
  MessagesToolResultBlock,
} from "./messages-api.js";
import { toMessagesCacheControl } from "./messages-cache-control.js";
import { effortWasSent, messagesExtras, systemWasString } from "./messages-extras.js";
import {
  acceptsEffort,
  defaultMaxTokens,
  MESSAGES_DEFAULT_THINKING_BUDGET,
  MESSAGES_EFFORT_BUDGET,
  MESSAGES_MAX_TEMPERATURE,
  requiresAdaptiveThinking,
} from "./messages-model-defaults.js";
import { toMessagesToolCallId } from "./messages-tool-call-id.js";
import { renderOutputFormat } from "./render-output-format.js";
import { continuesUnsignedToolTurn } from "./unsigned-tool-turn.js";

type Warn = (type: Warning["type"], feature: string, message: string) => void;

/** Canonical effort -> Anthropic output_config.effort (Anthropic has no "minimal"). */
export const EFFORT_TO_MESSAGES = {
  minimal: "low",
  low: "low",
  medium: "medium",
  high: "high",
} as const;

/** Keys of a canonical web_search tool's options that Anthropic's web search tool understands. */
const WEB_SEARCH_OPTIONS: ReadonlySet<string> = new Set([
  "max_uses",
  "allowed_domains",
  "blocked_domains",
  "user_location",
]);
export const MESSAGES_WEB_SEARCH_TOOL = "web_search_20250305";

/** Anthropic rejects text blocks that are empty or only whitespace. */
const isBlank = (text: string) => text.trim() === "";

/**
 * Canonical -> a request for the Anthropic Messages API (the upstream direction). Anthropic's
 * rules are applied here: turns alternate (same-side messages merge, a turn's tool_results come
 * first), blank text is never sent, unsigned thinking is never sent, tool-call ids are made
 * acceptable, `max_tokens` is always present and temperature is fitted to Anthropic's 0..1. What
 * cannot be expressed is refused (n > 1, non-object tool arguments, unsupported file types) or
 * dropped with a warning.
 */
export function renderMessagesRequest(
  request: Request,
  options: RenderOptions = {},
): MessagesRequestWire {
  const onWarning = options.onWarning;
  const warn: Warn = (type, feature, message) => onWarning?.({ type, feature, message });
  warnMovedSystem(request, onWarning);
  const sampling = request.sampling;

  if (sampling.n !== undefined && sampling.n > 1) {
    throw invalidRequest(
      "n: the messages protocol returns one reply per request (n must be 1)",
      "n",
    );
  }
  for (const [key, name] of [
    ["frequencyPenalty", "frequency_penalty"],
    ["presencePenalty", "presence_penalty"],
    ["seed", "seed"],
  ] as const) {
    if (sampling[key] !== undefined) {
      warn("dropped", `sampling.${key}`, `the messages protocol has no ${name}`);
    }
  }

  let maxTokens = sampling.maxTokens;
  if (maxTokens === undefined) {
    maxTokens = defaultMaxTokens(request.model);
    warn(
      "mapped",
      "sampling.maxTokens",
      `max_tokens is required by the messages protocol; using ${maxTokens} for ${request.model}`,
    );
  }

  const system = renderSystem(request, warn);
  const out: MessagesRequestWire = {
    model: request.model,
    max_tokens: maxTokens,
    messages: renderMessages(request.messages, warn),
  };
  if (system !== undefined) out.system = system;
  if (sampling.temperature !== undefined)
    out.temperature = renderTemperature(sampling.temperature, warn);
  if (sampling.topP !== undefined) out.top_p = sampling.topP;
  if (sampling.topK !== undefined) out.top_k = sampling.topK;
  if (sampling.stop !== undefined) out.stop_sequences = sampling.stop;

  if (request.user !== undefined) out.metadata = { user_id: request.user };
  if (request.metadata !== undefined && Object.keys(request.metadata).length > 0) {
    warn("dropped", "metadata", "the messages protocol accepts only metadata.user_id");
  }
  warnLogprobsRequest(request, onWarning, "the messages protocol");

  const tools = renderTools(allowedTools(request, warn), warn);
  if (tools.length > 0) out.tools = tools;
  const toolChoice = renderMessagesToolChoice(request, tools.length > 0, (w) => onWarning?.(w));
  if (toolChoice) out.tool_choice = toolChoice;

  const extras = messagesExtras(request.extras);
  if (request.thinking) {
    const takesEffort = acceptsEffort(request.model) || effortWasSent(request.extras);
    const rendered = renderThinking(request.thinking, request.model, takesEffort, out, warn);
    if (rendered.thinking) out.thinking = rendered.thinking;
    if (rendered.effort) {
      const config = extras?.["output_config"];
      const base = config && typeof config === "object" ? (config as Record<string, unknown>) : {};
      out["output_config"] = { ...base, effort: rendered.effort };
    }
  }
  if (out.thinking !== undefined && out.thinking.type !== "disabled") {
    if (continuesUnsignedToolTurn(out.messages)) {
      out.thinking = { type: "disabled" };
      warn(
        "mapped",
        "thinking",
        "the tool turn being continued has no signed thinking block, which Anthropic requires while thinking is on; thinking is off for this request",
      );
    }
  }

  if (request.responseFormat !== undefined) {
    renderOutputFormat(request.responseFormat, out, extras, warn);
  }
  fitThinkingConstraints(out, request.thinking?.budgetTokens !== undefined, warn);
  if (request.providerExtras?.gemini?.cachedContent !== undefined) {
    warn("dropped", "cachedContent", "the messages protocol has no named cache resources");
  }
  if ((request.providerExtras?.gemini?.safetySettings?.length ?? 0) > 0) {
    warn("dropped", "safetySettings", "the messages protocol has no safety settings");
  }
  if (request.stream) out.stream = true;

  if (extras) addFields(out, extras);
  return out;
}

/**
 * Anthropic's temperature range is 0..1 where OpenAI's and Gemini's is 0..2: a higher value from
 * those clients is sent as 1, the most varied Anthropic allows (a mapped warning), not refused.
 */
function renderTemperature(temperature: number, warn: Warn): number {
  if (temperature <= MESSAGES_MAX_TEMPERATURE) return temperature;
  warn(
    "mapped",
    "sampling.temperature",
    `Anthropic's temperature is at most ${MESSAGES_MAX_TEMPERATURE}; ${temperature} is sent as ${MESSAGES_MAX_TEMPERATURE}`,
  );
  return MESSAGES_MAX_TEMPERATURE;
}

function renderSystem(request: Request, warn: Warn): MessagesRequestWire["system"] {
  const blocks: MessagesTextBlock[] = [];
  request.system.forEach((part, i) => {
    const block = renderText(part, `system[${i}]`, warn);
    if (block) blocks.push(block);
  });
  if (blocks.length === 0) return undefined;
  const only = blocks[0];
  if (blocks.length === 1 && only && !only.cache_control && systemWasString(request.extras)) {
    return only.text;
  }
  return blocks;
}

function renderText(part: TextPart, feature: string, warn: Warn): MessagesTextBlock | undefined {
  if (part.signature !== undefined) {
    warn(
      "dropped",
      `${feature}.signature`,
      "text blocks carry no signature in the messages protocol",
    );
  }
  if (part.citations !== undefined) {
    // Anthropic checks a web-search citation's encrypted_index, which the canonical model lacks.
    warn("dropped", `${feature}.citations`, "history citations are not sent to Anthropic");
  }
  if (isBlank(part.text)) {
    warn("dropped", feature, "empty or whitespace-only text is never sent to Anthropic");
    return undefined;
  }
  const block: MessagesTextBlock = { type: "text", text: part.text };
  if (part.cacheControl) block.cache_control = toMessagesCacheControl(part.cacheControl);
  return block;
}

interface Turn {
  role: "user" | "assistant";
  results: MessagesToolResultBlock[];
  blocks: MessagesContentBlock[];
}

function renderMessages(messages: Request["messages"], warn: Warn): MessagesMessage[] {
  const turns: Turn[] = [];
  messages.forEach((message, i) => {
    const at = `messages[${i}]`;
    const turn: Turn = {
      role: message.role === "assistant" ? "assistant" : "user",
      results: [],
      blocks: [],
    };
    if (message.role !== "tool" && message.name !== undefined) {
      warn("dropped", `${at}.name`, "the messages protocol has no participant names");
    }
    const parts: readonly (typeof message.parts)[number][] =
      message.role === "assistant"
        ? restoreMovedThinkingSignature(message.parts, { alone: false })
        : message.parts;
    parts.forEach((part, j) => {
      const feature = `${at}.parts[${j}]`;
      if (part.type === "tool-result") turn.results.push(renderToolResult(part, feature, warn));
      else {
        const block = renderPart(part, feature, warn);
        if (block) turn.blocks.push(block);
      }
    });
    if (turn.results.length === 0 && turn.blocks.length === 0) {
      warn("dropped", at, "a message with nothing left to send is dropped");
      return;
    }
    const last = turns[turns.length - 1];
    // Anthropic requires alternating turns: consecutive same-side messages become one turn.
    if (last && last.role === turn.role) {
      last.results.push(...turn.results);
      last.blocks.push(...turn.blocks);
    } else {
      turns.push(turn);
    }
  });
  if (turns.length === 0) {
    throw invalidRequest("messages: no message has content that can be sent", "messages");
  }

  const final = turns[turns.length - 1] as Turn;
  const tail = final.blocks[final.blocks.length - 1];
  // A prefill may not end in whitespace: Anthropic rejects it.
  if (final.role === "assistant" && tail?.type === "text" && tail.text !== tail.text.trimEnd()) {
    tail.text = tail.text.trimEnd();
    warn("mapped", "messages", "trailing whitespace removed from the final assistant turn");
  }

  return turns.map((turn) => {
    // Tool results answer the previous turn's tool_use blocks and must come first in the turn.
    const content = turn.results.length > 0 ? [...turn.results, ...turn.blocks] : turn.blocks;
    const only = content[0];
    if (content.length === 1 && only?.type === "text" && !only.cache_control) {
      return { role: turn.role, content: only.text };
    }
    return { role: turn.role, content };
  });
}

function renderPart(
  part: UserPart | AssistantPart,
  feature: string,
  warn: Warn,
): MessagesContentBlock | undefined {
  switch (part.type) {
    case "text":
      return renderText(part, feature, warn);
    case "image":
      return renderImage(part, feature, warn);
    case "file":
      return renderFile(part, feature, warn);
    case "tool-call":
      return renderToolCall(part, feature, warn);
    case "thinking":
      if (!part.signature) {
        warn(
          "dropped",
          feature,
          "a thinking block without its signature is rejected by Anthropic and is not sent",
        );
        return undefined;
      }
      return { type: "thinking", thinking: part.text, signature: part.signature };
    case "redacted-thinking":
      return { type: "redacted_thinking", data: part.data };
  }
}

function renderImage(part: ImagePart, feature: string, warn: Warn): MessagesImageBlock {
  if (part.detail !== undefined) {
    warn("dropped", `${feature}.detail`, "the messages protocol has no image detail level");
  }
  const source = part.source;
  let block: MessagesImageBlock;
  if (source.type === "base64") {
    block = {
      type: "image",
      source: { type: "base64", media_type: source.mediaType, data: source.data },
    };
  } else {
    // Anthropic's url source fetches over HTTP; inline data URLs must become base64 sources.
    const inline = parseDataUrl(source.url);
    block = {
      type: "image",
      source: inline
        ? { type: "base64", media_type: inline.mediaType, data: inline.data }
        : { type: "url", url: source.url },
    };
  }
  if (part.cacheControl) block.cache_control = toMessagesCacheControl(part.cacheControl);
  return block;
}

function renderFile(
  part: FilePart,
  feature: string,
  warn: Warn,
): MessagesDocumentBlock | MessagesImageBlock {
  const source = part.source;
  const mediaType = source.type === "file-id" ? undefined : source.mediaType;
  if (mediaType?.startsWith("image/")) {
    warn("mapped", feature, "an image file is sent as an image block");
    const image: ImagePart = {
      type: "image",
      source:
        source.type === "base64"
          ? { type: "base64", mediaType: source.mediaType, data: source.data }
          : { type: "url", url: (source as { url: string }).url },
    };
    if (part.cacheControl) image.cacheControl = part.cacheControl;
    return renderImage(image, feature, warn);
  }
  let block: MessagesDocumentBlock;
  switch (source.type) {
    case "url": {
      const inline = parseDataUrl(source.url);
      if (inline)
        return renderFile({ ...part, source: { type: "base64", ...inline } }, feature, warn);
      // Anthropic fetches URL documents as PDF; another declared type cannot be passed on.
      if (source.mediaType !== undefined && source.mediaType !== "application/pdf") {
        warn("dropped", `${feature}.source.mediaType`, "URL documents are read as PDF");
      }
      block = { type: "document", source: { type: "url", url: source.url } };
      break;
    }
    case "file-id":
      block = { type: "document", source: { type: "file", file_id: source.fileId } };
      break;
    case "base64": {
      const text = source.mediaType === "text/plain" ? base64ToText(source.data) : undefined;
      if (text !== undefined) {
        block = {
          type: "document",
          source: { type: "text", media_type: "text/plain", data: text },
        };
      } else if (source.mediaType === "application/pdf") {
        block = {
          type: "document",
          source: { type: "base64", media_type: "application/pdf", data: source.data },
        };
      } else {
        throw invalidRequest(
          `${feature}: the messages protocol accepts PDF, plain-text and image files only (got ${source.mediaType})`,
          feature,
        );
      }
      break;
    }
  }
  if (part.filename !== undefined) block.title = part.filename;
  if (part.context !== undefined) block.context = part.context;
  if (part.citations !== undefined) block.citations = { enabled: part.citations };
  if (part.cacheControl) block.cache_control = toMessagesCacheControl(part.cacheControl);
  return block;
}

/** Tool arguments as the object Anthropic's `input` must be; "" means no arguments. */
function toolInput(args: string, feature: string): Record<string, unknown> {
  if (args === "") return {};
  let value: unknown;
  try {
    value = parseJsonKeepingNumbers(args);
  } catch {
    value = undefined;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalidRequest(
      `${feature}.arguments: tool-call arguments must be a JSON object for the messages protocol`,
      `${feature}.arguments`,
    );
  }
  return value as Record<string, unknown>;
}

function renderToolCallId(id: string, feature: string, warn: Warn): string {
  const safe = toMessagesToolCallId(id);
  if (safe !== id) warn("mapped", feature, `tool-call id ${JSON.stringify(id)} sent as ${safe}`);
  return safe;
}

function renderToolCall(part: ToolCallPart, feature: string, warn: Warn): MessagesContentBlock {
  if (part.signature !== undefined) {
    warn("dropped", `${feature}.signature`, "tool_use blocks carry no signature");
  }
  const block: MessagesContentBlock = {
    type: "tool_use",
    id: renderToolCallId(part.id, `${feature}.id`, warn),
    name: part.name,
    input: toolInput(part.arguments, feature),
  };
  if (part.cacheControl) block.cache_control = toMessagesCacheControl(part.cacheControl);
  return block;
}

function renderToolResult(
  part: ToolResultPart,
  feature: string,
  warn: Warn,
): MessagesToolResultBlock {
  const content: (MessagesTextBlock | MessagesImageBlock)[] = [];
  part.content.forEach((item, k) => {
    const at = `${feature}.content[${k}]`;
    const block = item.type === "text" ? renderText(item, at, warn) : renderImage(item, at, warn);
    if (block) content.push(block);
  });
  const block: MessagesToolResultBlock = {
    type: "tool_result",
    tool_use_id: renderToolCallId(part.toolCallId, `${feature}.toolCallId`, warn),
  };
  const only = content[0];
  if (content.length === 1 && only?.type === "text" && !only.cache_control) {
    block.content = only.text;
  } else if (content.length > 0) {
    block.content = content;
  }
  if (part.isError !== undefined) block.is_error = part.isError;
  if (part.cacheControl) block.cache_control = toMessagesCacheControl(part.cacheControl);
  return block;
}

/**
 * The tools the model may call. Anthropic's tool_choice has no allowed list (OpenAI
 * `allowed_tools`, canonical `toolChoice.allowed`): only the allowed tools are sent, with
 * `auto`/`any`, so the model cannot call the others; a cache prefix over the whole list is lost.
 */
function allowedTools(request: Request, warn: Warn): readonly Tool[] {
  const choice = request.toolChoice;
  if ((choice?.type !== "auto" && choice?.type !== "required") || !choice.allowed) {
    return request.tools;
  }
  const allowed = new Set(choice.allowed);
  const kept = request.tools.filter(
    (tool) => (tool.type === "function" || tool.type === "provider") && allowed.has(tool.name),
  );
  if (kept.length < request.tools.length) {
    warn(
      "mapped",
      "tools",
      `the messages protocol has no allowed-tools choice; only the allowed tools are sent (${[...allowed].join(", ")})`,
    );
  }
  return kept;
}

function renderTools(tools: readonly Tool[], warn: Warn): MessagesTool[] {
  const out: MessagesTool[] = [];
  tools.forEach((tool, i) => {
    const feature = `tools[${i}]`;
    switch (tool.type) {
      case "function": {
        const custom: MessagesTool = {
          name: tool.name,
          input_schema: jsonSchemaOf(tool.parameters, `${feature}.parameters`, warn),
        };
        if (tool.description !== undefined) custom.description = tool.description;
        if (tool.strict !== undefined) custom.strict = tool.strict;
        if (tool.cacheControl) custom.cache_control = toMessagesCacheControl(tool.cacheControl);
        out.push(custom);
        return;
      }
      case "provider":
        if (tool.provider !== "anthropic") {
          warn("dropped", feature, `a ${tool.provider} tool cannot be sent to Anthropic`);
          return;
        }
        out.push({ ...tool.options, type: tool.name } as MessagesTool);
        return;
      case "web_search": {
        const search: Record<string, unknown> = {
          type: MESSAGES_WEB_SEARCH_TOOL,
          name: "web_search",
        };
        for (const [key, value] of Object.entries(tool.options ?? {})) {
          if (WEB_SEARCH_OPTIONS.has(key)) search[key] = value;
          else
            warn("dropped", `${feature}.options.${key}`, "not an option of Anthropic web search");
        }
        warn("mapped", feature, `web_search sent as Anthropic's ${MESSAGES_WEB_SEARCH_TOOL}`);
        out.push(search as MessagesTool);
        return;
      }
      case "file_search":
      case "remote_mcp":
        warn("dropped", feature, `the messages protocol has no ${tool.type} tool`);
        return;
    }
  });
  return out;
}

/**
 * Canonical thinking -> Anthropic's thinking config and output_config.effort. `enabled` needs a
 * budget (from the effort table or the default, reported as mapped) and must stay below
 * max_tokens; models that only take adaptive thinking get adaptive. `takesEffort` false (a model
 * that refuses output_config.effort): the effort is carried by the derived budget only (mapped),
 * or dropped where the client's budget or adaptive thinking leaves it no room.
 */
function renderThinking(
  thinking: ThinkingConfig,
  model: string,
  takesEffort: boolean,
  out: MessagesRequestWire,
  warn: Warn,
): { thinking?: MessagesThinkingConfig; effort?: "low" | "medium" | "high" } {
  const result: { thinking?: MessagesThinkingConfig; effort?: "low" | "medium" | "high" } = {};
  if (thinking.type === "disabled") {
    for (const key of ["budgetTokens", "effort", "includeThoughts"] as const) {
      if (thinking[key] !== undefined) {
        warn("dropped", `thinking.${key}`, "meaningless while thinking is disabled");
      }
    }
    result.thinking = { type: "disabled" };
    return result;
  }
  if (thinking.effort !== undefined && takesEffort) {
    result.effort = EFFORT_TO_MESSAGES[thinking.effort];
    if (thinking.effort === "minimal") {
      warn("mapped", "thinking.effort", "Anthropic has no minimal effort; low is used");
    }
  }
  const display =
    thinking.includeThoughts === undefined
      ? undefined
      : thinking.includeThoughts
        ? ("summarized" as const)
        : ("omitted" as const);

  let type = thinking.type;
  if (type === "enabled" && requiresAdaptiveThinking(model)) {
    warn("mapped", "thinking.type", `${model} only accepts adaptive thinking`);
    type = "adaptive";
  }
  const refusedEffort = !takesEffort && thinking.effort !== undefined;
  if (type === "adaptive") {
    if (thinking.budgetTokens !== undefined) {
      warn("dropped", "thinking.budgetTokens", "adaptive thinking takes no token budget");
    }
    if (refusedEffort) {
      warn("dropped", "thinking.effort", `${model} takes no output_config.effort`);
    }
    result.thinking = display ? { type, display } : { type };
    return result;
  }

  let budget = thinking.budgetTokens;
  if (refusedEffort && budget !== undefined) {
    warn(
      "dropped",
      "thinking.effort",
      `${model} takes no output_config.effort; the thinking budget of ${budget} tokens stands`,
    );
  }
  if (budget === undefined) {
    budget =
      thinking.effort === undefined
        ? MESSAGES_DEFAULT_THINKING_BUDGET
        : MESSAGES_EFFORT_BUDGET[thinking.effort];
    // Anthropic requires budget_tokens < max_tokens; a derived budget is fitted below it, leaving
    // room for the answer (fit-thinking-constraints.ts).
    budget = derivedThinkingBudget(budget, out.max_tokens);
    warn("mapped", "thinking.budgetTokens", `thinking budget_tokens set to ${budget}`);
    if (refusedEffort) {
      warn(
        "mapped",
        "thinking.effort",
        `${model} takes no output_config.effort; the effort is sent as budget_tokens ${budget} only`,
      );
    }
  }
  result.thinking = display
    ? { type: "enabled", budget_tokens: budget, display }
    : { type: "enabled", budget_tokens: budget };
  return result;
}

/** A schema in Gemini's dialect (from a native client) as the JSON Schema Anthropic reads. */
export function jsonSchemaOf(schema: JsonObject, feature: string, warn: Warn): JsonObject {
  if (!isOpenApiDialect(schema)) return schema;
  warn("mapped", feature, "Gemini's schema dialect was converted to JSON Schema");
  return openApiToJsonSchema(schema);
}
