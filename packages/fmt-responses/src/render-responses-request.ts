import {
  type AssistantMessage,
  customToolNames,
  type FilePart,
  formatDataUrl,
  type Message,
  placeholderFileName,
  type RenderOptions,
  type Request,
  type ToolMessage,
  type UserMessage,
  type Warning,
  warnDocumentFields,
} from "@interlingua/core-types";
import { invalidRequest } from "@interlingua/errors";
import { imageUrlFromSource } from "./image-url.js";
import {
  effortFromThinking,
  renderResponsesTextFormat,
  renderResponsesToolChoice,
} from "./map-responses-options.js";
import { renderResponsesTool } from "./map-responses-tools.js";
import { opaqueContentOf } from "./opaque-reasoning.js";
import type {
  InterlinguaResponsesRequestWire,
  ResponsesAssistantItem,
  ResponsesInputFileBlock,
  ResponsesInputImageBlock,
  ResponsesInputItem,
  ResponsesInputTextBlock,
  ResponsesReasoning,
  ResponsesTool,
} from "./responses-api.js";
import { RESPONSES_LOGPROBS_INCLUDE } from "./responses-logprobs.js";

type Warn = (warning: Warning) => void;

/** Calls rendered so far: names by id, and the ids of custom calls (their outputs differ). */
interface Calls {
  readonly names: Map<string, string>;
  readonly custom: Set<string>;
}
const ignore: Warn = () => {};

/** Sampling parameters the responses format has no field for. */
const unsupportedSampling = [
  "topK",
  "stop",
  "frequencyPenalty",
  "presencePenalty",
  "seed",
] as const;

/**
 * Renders a canonical request as a `POST /v1/responses` body, in the spec's own shapes: system
 * text as one leading `system` item, content always as block arrays, function tools nested,
 * `max_tokens`. Fields kept in `extras.responses` come back as they were sent.
 */
export function renderInterlinguaResponsesRequest(
  request: Request,
  options: RenderOptions = {},
): InterlinguaResponsesRequestWire {
  const warn = options.onWarning ?? ignore;
  const sampling = request.sampling;
  if (sampling.n !== undefined && sampling.n > 1) {
    throw invalidRequest(
      "sampling.n: the responses format returns one choice; n > 1 is not supported",
      "n",
    );
  }
  for (const key of unsupportedSampling) {
    if (sampling[key] !== undefined) {
      warn({
        type: "dropped",
        feature: `sampling.${key}`,
        message: `the responses format has no ${key}`,
      });
    }
  }
  for (const key of ["cachedContent", "safetySettings"] as const) {
    if (request.providerExtras?.gemini?.[key] !== undefined) {
      warn({ type: "dropped", feature: key, message: `the responses format has no ${key}` });
    }
  }

  const extras = request.extras?.["responses"] ?? {};
  const wire: InterlinguaResponsesRequestWire = {
    ...extras,
    model: request.model,
    input: renderInput(request, warn),
  };
  if (sampling.temperature !== undefined) wire.temperature = sampling.temperature;
  if (sampling.topP !== undefined) wire.top_p = sampling.topP;
  if (sampling.maxTokens !== undefined) wire.max_tokens = sampling.maxTokens;
  if (request.stream) wire.stream = true;

  const tools: ResponsesTool[] = [];
  request.tools.forEach((tool, i) => {
    const rendered = renderResponsesTool(tool, `tools[${i}]`, warn);
    if (rendered) tools.push(rendered);
  });
  if (tools.length > 0) wire.tools = tools;
  // A choice the canonical model only approximates (allowed_tools, ...) went to extras as given.
  if (request.toolChoice !== undefined && extras["tool_choice"] === undefined) {
    wire.tool_choice = renderResponsesToolChoice(
      request.toolChoice,
      customToolNames(request.tools),
    );
  }
  if (request.parallelToolCalls !== undefined) wire.parallel_tool_calls = request.parallelToolCalls;
  if (request.user !== undefined) wire.user = request.user;
  if (request.metadata !== undefined) wire.metadata = request.metadata;
  if (request.topLogprobs !== undefined) wire.top_logprobs = request.topLogprobs;
  // `logprobs: false` asks for nothing: the Responses API returns none unless included.
  if (request.logprobs === true) {
    const include = Array.isArray(extras["include"]) ? (extras["include"] as string[]) : [];
    wire.include = [...include, RESPONSES_LOGPROBS_INCLUDE];
  }

  const reasoning = renderReasoning(request, asRecord(extras["reasoning"]), warn);
  if (reasoning) wire.reasoning = reasoning;
  else delete wire.reasoning;

  const text = { ...asRecord(extras["text"]) };
  if (request.responseFormat !== undefined)
    text["format"] = renderResponsesTextFormat(request.responseFormat);
  if (Object.keys(text).length > 0) wire.text = text;
  else delete wire.text;
  return wire;
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

function renderReasoning(
  request: Request,
  kept: Record<string, unknown>,
  warn: Warn,
): ResponsesReasoning | undefined {
  const reasoning: ResponsesReasoning = { ...kept };
  const thinking = request.thinking;
  if (thinking) {
    const effort = effortFromThinking(thinking);
    // An effort kept as given (`xhigh`) read as "high": it stays while the canonical one is that.
    const keptEffort = typeof kept["effort"] === "string" && effort === "high";
    if (effort !== undefined && !keptEffort) reasoning.effort = effort;
    if (thinking.budgetTokens !== undefined) {
      warn({
        type: "dropped",
        feature: "thinking.budgetTokens",
        message: "the responses format sets reasoning.effort, not a token budget",
      });
    }
    if (thinking.includeThoughts === true) reasoning.summary ??= "auto";
    else delete reasoning.summary;
  }
  return Object.keys(reasoning).length > 0 ? reasoning : undefined;
}

function renderInput(request: Request, warn: Warn): ResponsesInputItem[] {
  const items: ResponsesInputItem[] = [];
  // System text stays where the client put it (`systemAt`): one system item per position.
  const systemItem = (before: number) => {
    const content: { type: "input_text"; text: string }[] = [];
    request.system.forEach((part, j) => {
      if ((request.systemAt?.[j] ?? 0) !== before) return;
      dropPartExtras(part, `system[${j}]`, warn);
      content.push({ type: "input_text", text: part.text });
    });
    if (content.length > 0) items.push({ role: "system", content });
  };
  systemItem(0);
  // A call output names its call by id only; a name that the history already implies is not lost.
  const calls: Calls = { names: new Map(), custom: new Set() };
  request.messages.forEach((message, i) => {
    const at = `messages[${i}]`;
    if (message.role !== "tool" && message.name !== undefined) {
      warn({
        type: "dropped",
        feature: "messages.name",
        message: `${at}.name: input items have no name`,
      });
    }
    if (i > 0) systemItem(i);
    renderMessage(message, at, items, calls, warn);
  });
  if (request.messages.length > 0) systemItem(request.messages.length);
  return items;
}

function renderMessage(
  message: Message,
  at: string,
  items: ResponsesInputItem[],
  calls: Calls,
  warn: Warn,
): void {
  switch (message.role) {
    case "user":
      items.push({ role: "user", content: userBlocks(message, at, warn) });
      return;
    case "assistant":
      renderAssistant(message, at, items, calls, warn);
      return;
    case "tool":
      renderToolResults(message, at, items, calls, warn);
      return;
  }
}

function userBlocks(
  message: UserMessage,
  at: string,
  warn: Warn,
): (ResponsesInputTextBlock | ResponsesInputImageBlock | ResponsesInputFileBlock)[] {
  const blocks: (ResponsesInputTextBlock | ResponsesInputImageBlock | ResponsesInputFileBlock)[] =
    [];
  message.parts.forEach((part, j) => {
    const partAt = `${at}.parts[${j}]`;
    if (part.type === "file") {
      dropPartExtras(part, partAt, warn);
      warnDocumentFields(part, partAt, warn);
      blocks.push(fileBlock(part));
      return;
    }
    dropPartExtras(part, partAt, warn);
    blocks.push(
      part.type === "text" ? { type: "input_text", text: part.text } : imageBlock(part, partAt),
    );
  });
  return blocks;
}

/** A file part as OpenAI's `input_file`: inline as a data URL, by URL, or by id. */
function fileBlock(part: FilePart): ResponsesInputFileBlock {
  const source = part.source;
  const block: ResponsesInputFileBlock =
    source.type === "base64"
      ? { type: "input_file", file_data: formatDataUrl(source) }
      : source.type === "url"
        ? { type: "input_file", file_url: source.url }
        : { type: "input_file", file_id: source.fileId };
  if (part.filename !== undefined) block.filename = part.filename;
  // OpenAI refuses file_data without a filename ("Missing required parameter").
  else if (source.type === "base64") block.filename = placeholderFileName(source.mediaType);
  return block;
}

function imageBlock(
  part: { source: Parameters<typeof imageUrlFromSource>[0]; detail?: "auto" | "low" | "high" },
  at: string,
): ResponsesInputImageBlock {
  const url = imageUrlFromSource(part.source);
  if (url === undefined) {
    throw invalidRequest(
      `${at}.source: the responses format takes an http(s) URL or a jpeg, png, gif or webp data URI`,
      `${at}.source`,
    );
  }
  const block: ResponsesInputImageBlock = { type: "input_image", image_url: url };
  if (part.detail !== undefined) block.detail = part.detail;
  return block;
}

/** Text runs become one assistant message item; calls and reasoning are items of their own. */
function renderAssistant(
  message: AssistantMessage,
  at: string,
  items: ResponsesInputItem[],
  calls: Calls,
  warn: Warn,
): void {
  const start = items.length;
  let textRun: Extract<ResponsesAssistantItem["content"], unknown[]> | undefined;
  message.parts.forEach((part, j) => {
    const partAt = `${at}.parts[${j}]`;
    if (part.type !== "text") textRun = undefined;
    // Redacted thinking and signed text/calls ride in a marked reasoning item (opaque-reasoning.ts).
    const opaque = opaqueContentOf(part);
    if (opaque !== undefined) {
      if (part.type === "redacted-thinking") {
        items.push({ type: "reasoning", summary: [], encrypted_content: opaque });
        return;
      }
      if (part.type === "text") textRun = undefined;
      items.push({ type: "reasoning", summary: [], encrypted_content: opaque });
    }
    switch (part.type) {
      case "text":
        dropPartExtras(part, partAt, warn);
        if (part.citations !== undefined) {
          warn({
            type: "dropped",
            feature: "parts.citations",
            message: `${partAt}.citations: history text is sent without annotations`,
          });
        }
        if (!textRun) {
          textRun = [];
          items.push({ role: "assistant", content: textRun });
        }
        textRun.push({ type: "output_text", text: part.text });
        return;
      case "tool-call":
        dropPartExtras(part, partAt, warn);
        calls.names.set(part.id, part.name);
        if (part.custom) {
          calls.custom.add(part.id);
          items.push({
            type: "custom_tool_call",
            call_id: part.id,
            name: part.name,
            input: part.arguments,
          });
          return;
        }
        items.push({
          type: "function_call",
          call_id: part.id,
          name: part.name,
          arguments: part.arguments,
          ...(part.namespace === undefined ? {} : { namespace: part.namespace }),
        });
        return;
      case "thinking": {
        items.push({
          type: "reasoning",
          summary: part.text === "" ? [] : [{ type: "summary_text", text: part.text }],
          ...(part.signature === undefined ? {} : { encrypted_content: part.signature }),
        });
        return;
      }
      default:
        warn({
          type: "dropped",
          feature: `parts.${part.type}`,
          message: `${partAt}: assistant input has no ${part.type} item in the responses format`,
        });
    }
  });
  // An assistant turn with nothing expressible stays a turn, so the turns around it stay apart.
  if (items.length === start) items.push({ role: "assistant", content: [] });
}

function renderToolResults(
  message: ToolMessage,
  at: string,
  items: ResponsesInputItem[],
  calls: Calls,
  warn: Warn,
): void {
  message.parts.forEach((part, j) => {
    const partAt = `${at}.parts[${j}]`;
    if (part.isError !== undefined) {
      warn({
        type: "dropped",
        feature: "parts.isError",
        message: `${partAt}.isError: function_call_output has no error flag`,
      });
    }
    if (part.cacheControl !== undefined) {
      warn({
        type: "dropped",
        feature: "parts.cacheControl",
        message: `${partAt}.cacheControl: no cache boundaries here`,
      });
    }
    if (part.name !== undefined && calls.names.get(part.toolCallId) !== part.name) {
      warn({
        type: "dropped",
        feature: "parts.name",
        message: `${partAt}.name: function_call_output names its call by id only`,
      });
    }
    const blocks = part.content.map((content, k) => {
      const contentAt = `${partAt}.content[${k}]`;
      dropPartExtras(content, contentAt, warn);
      return content.type === "text"
        ? ({ type: "input_text", text: content.text } as const)
        : imageBlock(content, contentAt);
    });
    const only = blocks[0];
    const output =
      blocks.length === 0
        ? ""
        : blocks.length === 1 && only?.type === "input_text" && only.text !== ""
          ? only.text
          : blocks;
    const type = calls.custom.has(part.toolCallId)
      ? "custom_tool_call_output"
      : "function_call_output";
    items.push({ type, call_id: part.toolCallId, output });
  });
}

function dropPartExtras(part: { cacheControl?: unknown }, at: string, warn: Warn): void {
  if (part.cacheControl !== undefined) {
    warn({
      type: "dropped",
      feature: "parts.cacheControl",
      message: `${at}.cacheControl: the responses format has no cache boundaries`,
    });
  }
}
