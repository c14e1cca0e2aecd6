import {
  type AssistantMessage,
  type AssistantPart,
  type FilePart,
  type Message,
  parseDataUrl,
  type Request,
  type Sampling,
  type TextPart,
  type ToolMessage,
  type ToolResultContent,
  type UserPart,
} from "@interlingua/core-types";
import { invalidFromZod, invalidRequest } from "@interlingua/errors";
import { imageSourceFromUrl } from "./image-url.js";
import {
  isCarriedToolChoice,
  isKnownEffort,
  parseResponsesReasoning,
  parseResponsesTextFormat,
  parseResponsesToolChoice,
} from "./map-responses-options.js";
import { parseResponsesTool } from "./map-responses-tools.js";
import { liftOpaqueReasoning } from "./opaque-reasoning.js";
import {
  type InterlinguaResponsesRequestWire,
  interlinguaResponsesRequestSchema,
  type ResponsesInputFileBlock,
  type ResponsesInputImageBlock,
  type ResponsesInputItem,
  type ResponsesInputTextBlock,
  type ResponsesReasoningItem,
} from "./responses-api.js";
import { RESPONSES_LOGPROBS_INCLUDE } from "./responses-logprobs.js";

/** Top-level fields the canonical model interprets; every other field goes to `extras.responses`. */
export const knownRequestFields: ReadonlySet<string> = new Set([
  "model",
  "input",
  "instructions",
  "temperature",
  "top_p",
  "max_tokens",
  "max_output_tokens",
  "stream",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "reasoning",
  "text",
  "user",
  "metadata",
  "top_logprobs",
]);

/** Several summary parts of one reasoning item read as one thinking text, paragraph-separated. */
export const joinSummaries = (summary: readonly { text: string }[]): string =>
  summary
    .map((s) => s.text)
    .filter((t) => t !== "")
    .join("\n\n");

/** A function call with no arguments is "{}" canonically, never "". */
export const normalizeArguments = (args: string): string => (args === "" ? "{}" : args);

export function thinkingFromReasoningItem(item: {
  summary: readonly { text: string }[];
  encrypted_content?: string | null | undefined;
}): AssistantPart {
  const part: AssistantPart = { type: "thinking", text: joinSummaries(item.summary) };
  if (typeof item.encrypted_content === "string") part.signature = item.encrypted_content;
  return part;
}

/**
 * Parses and validates a `POST /v1/responses` body; a 400 names the offending field path. A body
 * is unambiguous between OpenAI's shape and the spec's (flat or nested function tools,
 * `max_output_tokens` or `max_tokens`), so this one parser takes both, for both codecs.
 */
export function parseResponsesRequest(wire: unknown): Request {
  const parsed = interlinguaResponsesRequestSchema.safeParse(wire);
  if (!parsed.success) throw invalidFromZod(parsed.error);
  return requestFromWire(parsed.data);
}

function requestFromWire(w: InterlinguaResponsesRequestWire): Request {
  const system: TextPart[] = [];
  if (typeof w.instructions === "string") system.push({ type: "text", text: w.instructions });
  const messages =
    typeof w.input === "string"
      ? [{ role: "user" as const, parts: [{ type: "text" as const, text: w.input }] }]
      : messagesFromItems(w.input, system);

  const request: Request = {
    model: w.model,
    system,
    messages,
    sampling: samplingFromWire(w),
    tools: (w.tools ?? []).map(parseResponsesTool),
    stream: w.stream ?? false,
  };
  if (w.tool_choice != null) request.toolChoice = parseResponsesToolChoice(w.tool_choice);
  if (w.parallel_tool_calls != null) request.parallelToolCalls = w.parallel_tool_calls;
  if (w.user != null) request.user = w.user;
  if (w.metadata != null) request.metadata = w.metadata;
  if (w.top_logprobs != null) request.topLogprobs = w.top_logprobs;

  const extras: Record<string, unknown> = {};
  for (const key of Object.keys(w)) {
    if (!knownRequestFields.has(key)) extras[key] = w[key];
  }
  if (w.tool_choice != null && isCarriedToolChoice(w.tool_choice)) {
    extras["tool_choice"] = w.tool_choice;
  }
  if (w.reasoning != null) {
    const thinking = parseResponsesReasoning(w.reasoning);
    if (thinking) request.thinking = thinking;
    // The rest of `reasoning` (a summary style other than the "auto" that includeThoughts
    // renders as, fields OpenAI adds later) comes back on render.
    // An effort the canonical model does not hold (`xhigh`) stays as given for the Responses API.
    const rest = withoutNulls(
      w.reasoning,
      typeof w.reasoning.effort === "string" && !isKnownEffort(w.reasoning.effort) ? "" : "effort",
    );
    if (rest["summary"] === "auto") delete rest["summary"];
    if (Object.keys(rest).length > 0) extras["reasoning"] = rest;
  }
  if (w.text != null) {
    if (w.text.format !== undefined)
      request.responseFormat = parseResponsesTextFormat(w.text.format);
    const rest = withoutNulls(w.text, "format");
    if (Object.keys(rest).length > 0) extras["text"] = rest;
  }
  // Asking for output_text logprobs is the canonical `logprobs`; other include entries stay.
  const include = extras["include"];
  if (Array.isArray(include) && include.includes(RESPONSES_LOGPROBS_INCLUDE)) {
    request.logprobs = true;
    const rest = include.filter((entry) => entry !== RESPONSES_LOGPROBS_INCLUDE);
    if (rest.length > 0) extras["include"] = rest;
    else delete extras["include"];
  }
  if (Object.keys(extras).length > 0) request.extras = { responses: extras };
  return request;
}

function samplingFromWire(w: InterlinguaResponsesRequestWire): Sampling {
  const sampling: Sampling = {};
  if (w.temperature != null) sampling.temperature = w.temperature;
  if (w.top_p != null) sampling.topP = w.top_p;
  const maxTokens = w.max_tokens ?? w.max_output_tokens;
  if (maxTokens != null) sampling.maxTokens = maxTokens;
  return sampling;
}

function withoutNulls(object: Record<string, unknown>, omit: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    if (key !== omit && value !== null && value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * Items become canonical turns. A system item joins `system`, wherever it stands. Consecutive
 * assistant-side items (assistant messages, function calls, reasoning) are one assistant turn, as
 * the Responses API emits them; consecutive function call outputs are one tool turn. A call
 * output gets the name of the call it answers, when that call is in the history.
 */
function messagesFromItems(items: readonly ResponsesInputItem[], system: TextPart[]): Message[] {
  const messages: Message[] = [];
  const callNames = new Map<string, string>();
  const assistantTurn = (): AssistantMessage => {
    const last = messages[messages.length - 1];
    if (last?.role === "assistant") return last;
    const turn: AssistantMessage = { role: "assistant", parts: [] };
    messages.push(turn);
    return turn;
  };
  const toolTurn = (): ToolMessage => {
    const last = messages[messages.length - 1];
    if (last?.role === "tool") return last;
    const turn: ToolMessage = { role: "tool", parts: [] };
    messages.push(turn);
    return turn;
  };

  for (const item of items) {
    switch (item.type) {
      case "function_call": {
        callNames.set(item.call_id, item.name);
        const part: AssistantPart = {
          type: "tool-call",
          id: item.call_id,
          name: item.name,
          arguments: normalizeArguments(item.arguments),
        };
        if (typeof item.namespace === "string" && item.namespace !== "") {
          part.namespace = item.namespace;
        }
        assistantTurn().parts.push(part);
        break;
      }
      case "custom_tool_call":
        callNames.set(item.call_id, item.name);
        assistantTurn().parts.push({
          type: "tool-call",
          id: item.call_id,
          name: item.name,
          arguments: item.input,
          custom: true,
        });
        break;
      case "custom_tool_call_output":
      case "function_call_output": {
        const part: ToolMessage["parts"][number] = {
          type: "tool-result",
          toolCallId: item.call_id,
          content: toolResultContent(item.output),
        };
        const name = callNames.get(item.call_id);
        if (name !== undefined) part.name = name;
        toolTurn().parts.push(part);
        break;
      }
      case "reasoning":
        assistantTurn().parts.push(
          thinkingFromReasoningItem(item satisfies ResponsesReasoningItem),
        );
        break;
      default:
        switch (item.role) {
          case "system":
          case "developer":
            for (const block of blocksOf(item.content)) {
              system.push({ type: "text", text: block.text });
            }
            break;
          case "user":
            messages.push({ role: "user", parts: blocksOf(item.content).map(userPart) });
            break;
          case "assistant": {
            const turn = assistantTurn();
            for (const block of blocksOf(item.content)) {
              turn.parts.push({ type: "text", text: block.text });
            }
            break;
          }
        }
    }
  }
  return messages.map((m) => (m.role === "assistant" ? liftOpaqueReasoning(m) : m));
}

type Block =
  | ResponsesInputTextBlock
  | ResponsesInputImageBlock
  | ResponsesInputFileBlock
  | { type: "output_text"; text: string };

function blocksOf<B extends Block>(
  content: string | readonly B[],
): readonly (B | ResponsesInputTextBlock)[] {
  return typeof content === "string" ? [{ type: "input_text", text: content }] : content;
}

function userPart(
  block: ResponsesInputTextBlock | ResponsesInputImageBlock | ResponsesInputFileBlock,
): UserPart {
  if (block.type === "input_text") return { type: "text", text: block.text };
  if (block.type === "input_file") return filePart(block);
  const part: UserPart = { type: "image", source: imageSourceFromUrl(block.image_url) };
  if (block.detail !== undefined) part.detail = block.detail;
  return part;
}

/** File types by extension, for base64 `file_data` sent without a data-URL prefix. */
const FILE_TYPES: Readonly<Record<string, string>> = {
  pdf: "application/pdf",
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  json: "application/json",
};

/** `input_file` as a canonical file part: inline bytes, a URL, or an id (the schema saw one). */
function filePart(block: ResponsesInputFileBlock): FilePart {
  let part: FilePart;
  if (block.file_url !== undefined)
    part = { type: "file", source: { type: "url", url: block.file_url } };
  else if (block.file_id !== undefined)
    part = { type: "file", source: { type: "file-id", fileId: block.file_id } };
  else {
    const data = block.file_data as string;
    const inline = parseDataUrl(data);
    const extension = block.filename?.split(".").pop()?.toLowerCase() ?? "";
    const mediaType = inline?.mediaType ?? FILE_TYPES[extension];
    if (mediaType === undefined) {
      throw invalidRequest(
        "file_data: a data URL (data:<type>;base64,...) or base64 with a filename whose extension names its type (.pdf, .txt, ...)",
        "file_data",
      );
    }
    part = { type: "file", source: { type: "base64", mediaType, data: inline?.data ?? data } };
  }
  if (block.filename !== undefined) part.filename = block.filename;
  return part;
}

/** "" is no content; a string is one text; blocks are texts and images in order. */
function toolResultContent(
  output: string | readonly (ResponsesInputTextBlock | ResponsesInputImageBlock)[],
): ToolResultContent[] {
  if (typeof output === "string") return output === "" ? [] : [{ type: "text", text: output }];
  return output.map((block) => userPart(block) as ToolResultContent);
}
