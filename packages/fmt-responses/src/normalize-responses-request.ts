import { invalidFromZod } from "@interlingua/errors";
import { emptyParameters } from "./map-responses-tools.js";
import {
  joinSummaries,
  knownRequestFields,
  normalizeArguments,
} from "./parse-responses-request.js";
import {
  type InterlinguaResponsesRequestWire,
  interlinguaResponsesRequestSchema,
  isKnownResponsesTool,
  type ResponsesInputFileBlock,
  type ResponsesInputImageBlock,
  type ResponsesInputItem,
  type ResponsesInputTextBlock,
  type ResponsesTextFormat,
  type ResponsesTool,
} from "./responses-api.js";
import { RESPONSES_LOGPROBS_INCLUDE } from "./responses-logprobs.js";

/**
 * The normal form law 1 compares against: `render(parse(w))` equals
 * `normalizeInterlinguaResponsesRequest(w)`. What it normalises, and nothing else:
 * - known fields set to null are absent; `stream: false` is absent; `max_output_tokens` becomes
 *   `max_tokens` (`max_tokens` wins when both are sent);
 * - `input` as a string becomes one user item; `instructions` and every system/developer item
 *   become one leading `system` item (instructions first, then the items in order);
 * - every content is a block array, without `type: "message"` or fields the spec does not show
 *   (`id`, `status`, `annotations`); assistant text blocks are `output_text`;
 * - consecutive assistant message items are one item; an empty one disappears next to other
 *   assistant-side items; function call `arguments` "" is "{}"; reasoning summaries are one
 *   `summary_text` (non-empty texts joined by a blank line, none when empty) and a null
 *   `encrypted_content` is absent; call outputs are a string when they are one non-empty text,
 *   "" when empty, blocks otherwise;
 * - function tools are in the spec's nested shape with `parameters` (default: no arguments),
 *   a description ("" when a flat tool has none) and `strict` only when it is a boolean;
 *   remote_mcp has its explicit timeout (default 30) and only url, auth_token and timeout;
 * - tool_choice `{type: "function", function: {name}}` is `{type: "function", name}`;
 * - `reasoning` and `text` lose null fields and disappear when empty; a json_schema format keeps
 *   only type, name, schema and strict;
 * - an `include` asking for `message.output_text.logprobs` has that entry once, last.
 */
export function normalizeInterlinguaResponsesRequest(
  wire: unknown,
): InterlinguaResponsesRequestWire {
  const parsed = interlinguaResponsesRequestSchema.safeParse(wire);
  if (!parsed.success) throw invalidFromZod(parsed.error);
  const w = parsed.data;
  const out: InterlinguaResponsesRequestWire = { model: w.model, input: normalizeInput(w) };
  for (const [key, value] of Object.entries(w)) {
    if (!knownRequestFields.has(key)) out[key] = value;
  }
  if (w.temperature != null) out.temperature = w.temperature;
  if (w.top_p != null) out.top_p = w.top_p;
  const maxTokens = w.max_tokens ?? w.max_output_tokens;
  if (maxTokens != null) out.max_tokens = maxTokens;
  if (w.stream === true) out.stream = true;
  if (w.tools != null && w.tools.length > 0) out.tools = w.tools.map(normalizeTool);
  if (w.tool_choice != null) {
    const choice = w.tool_choice;
    const named = choice as { name?: string; function?: { name: string } };
    out.tool_choice =
      typeof choice === "string"
        ? choice
        : choice.type === "function" || choice.type === "custom"
          ? { type: choice.type, name: (named.name ?? named.function?.name) as string }
          : choice;
  }
  if (w.parallel_tool_calls != null) out.parallel_tool_calls = w.parallel_tool_calls;
  if (w.user != null) out.user = w.user;
  if (w.metadata != null) out.metadata = w.metadata;
  if (w.top_logprobs != null) out.top_logprobs = w.top_logprobs;
  if (Array.isArray(w.include) && w.include.includes(RESPONSES_LOGPROBS_INCLUDE)) {
    out.include = [
      ...w.include.filter((entry) => entry !== RESPONSES_LOGPROBS_INCLUDE),
      RESPONSES_LOGPROBS_INCLUDE,
    ];
  }
  if (w.reasoning != null) {
    const reasoning = withoutNulls(w.reasoning);
    if (Object.keys(reasoning).length > 0) out.reasoning = reasoning;
  }
  if (w.text != null) {
    const text = withoutNulls(w.text);
    if (w.text.format !== undefined) text["format"] = normalizeFormat(w.text.format);
    if (Object.keys(text).length > 0) out.text = text;
  }
  return out;
}

function withoutNulls(object: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    if (value !== null && value !== undefined) out[key] = value;
  }
  return out;
}

function normalizeFormat(format: ResponsesTextFormat): ResponsesTextFormat {
  if (format.type !== "json_schema") return { type: format.type };
  const out: ResponsesTextFormat = { type: "json_schema", schema: format.schema };
  if (format.name !== undefined) out.name = format.name;
  if (typeof format.strict === "boolean") out.strict = format.strict;
  return out;
}

function normalizeTool(tool: ResponsesTool): ResponsesTool {
  if (!isKnownResponsesTool(tool)) return tool;
  switch (tool.type) {
    case "function": {
      const fn = tool.function ?? {
        name: tool.name as string,
        description: tool.description,
        parameters: tool.parameters,
        strict: tool.strict,
      };
      const out: NonNullable<typeof tool.function> = {
        name: fn.name,
        description: fn.description ?? "",
        parameters: fn.parameters ?? emptyParameters(),
      };
      if (typeof fn.strict === "boolean") out.strict = fn.strict;
      return { type: "function", function: out };
    }
    case "remote_mcp": {
      const mcp = tool.remote_mcp;
      const out: typeof mcp = { url: mcp.url, timeout: mcp.timeout ?? 30 };
      if (mcp.auth_token !== undefined) out.auth_token = mcp.auth_token;
      return { type: "remote_mcp", remote_mcp: out };
    }
    default:
      return tool;
  }
}

type UserBlock = ResponsesInputTextBlock | ResponsesInputImageBlock | ResponsesInputFileBlock;

const normalizeBlock = (block: UserBlock): UserBlock => {
  if (block.type === "input_text") return { type: "input_text", text: block.text };
  if (block.type === "input_file") {
    const { type, file_data, file_url, file_id, filename } = block;
    const out: ResponsesInputFileBlock = { type };
    if (file_data !== undefined) out.file_data = file_data;
    if (file_url !== undefined) out.file_url = file_url;
    if (file_id !== undefined) out.file_id = file_id;
    if (filename !== undefined) out.filename = filename;
    return out;
  }
  const out: ResponsesInputImageBlock = { type: "input_image", image_url: block.image_url };
  if (block.detail !== undefined) out.detail = block.detail;
  return out;
};

const textsOf = (content: string | readonly { text: string }[]): string[] =>
  typeof content === "string" ? [content] : content.map((b) => b.text);

function normalizeInput(w: InterlinguaResponsesRequestWire): ResponsesInputItem[] {
  const system: ResponsesInputTextBlock[] = [];
  if (typeof w.instructions === "string") system.push({ type: "input_text", text: w.instructions });
  const rest: ResponsesInputItem[] = [];
  const items: readonly ResponsesInputItem[] =
    typeof w.input === "string" ? [{ role: "user", content: w.input }] : w.input;

  let run: ResponsesInputItem[] | undefined;
  const endRun = () => {
    if (run) rest.push(...normalizeAssistantRun(run));
    run = undefined;
  };
  for (const item of items) {
    const assistantSide =
      item.type === "function_call" ||
      item.type === "custom_tool_call" ||
      item.type === "reasoning" ||
      (item.type !== "function_call_output" &&
        item.type !== "custom_tool_call_output" &&
        item.role === "assistant");
    if (assistantSide) {
      run ??= [];
      run.push(item);
      continue;
    }
    if (item.type === "function_call_output" || item.type === "custom_tool_call_output") {
      endRun();
      rest.push({
        type: item.type,
        call_id: item.call_id,
        output: normalizeOutput(item.output),
      });
      continue;
    }
    if (item.role === "system" || item.role === "developer") {
      for (const text of textsOf(item.content)) system.push({ type: "input_text", text });
      continue;
    }
    endRun();
    const content =
      typeof item.content === "string"
        ? [{ type: "input_text" as const, text: item.content }]
        : item.content;
    rest.push({ role: "user", content: (content as UserBlock[]).map(normalizeBlock) });
  }
  endRun();
  return system.length > 0 ? [{ role: "system", content: system }, ...rest] : rest;
}

type OutputBlock = ResponsesInputTextBlock | ResponsesInputImageBlock;

function normalizeOutput(output: string | readonly OutputBlock[]): string | OutputBlock[] {
  if (typeof output === "string") return output;
  const first = output[0];
  if (output.length === 0) return "";
  if (output.length === 1 && first?.type === "input_text" && first.text !== "") return first.text;
  return output.map((block) => normalizeBlock(block) as OutputBlock);
}

/** One assistant turn: adjacent message items merge, empty ones vanish unless alone. */
function normalizeAssistantRun(run: readonly ResponsesInputItem[]): ResponsesInputItem[] {
  const out: ResponsesInputItem[] = [];
  let texts: { type: "output_text"; text: string }[] | undefined;
  for (const item of run) {
    if (item.type === "function_call") {
      texts = undefined;
      out.push({
        type: "function_call",
        call_id: item.call_id,
        name: item.name,
        arguments: normalizeArguments(item.arguments),
        ...(typeof item.namespace === "string" && item.namespace !== ""
          ? { namespace: item.namespace }
          : {}),
      });
    } else if (item.type === "custom_tool_call") {
      texts = undefined;
      out.push({ type: item.type, call_id: item.call_id, name: item.name, input: item.input });
    } else if (item.type === "reasoning") {
      texts = undefined;
      const text = joinSummaries(item.summary);
      out.push({
        type: "reasoning",
        summary: text === "" ? [] : [{ type: "summary_text", text }],
        ...(typeof item.encrypted_content === "string"
          ? { encrypted_content: item.encrypted_content }
          : {}),
      });
    } else if (
      item.type !== "function_call_output" &&
      item.type !== "custom_tool_call_output" &&
      item.role === "assistant"
    ) {
      const blocks = textsOf(item.content).map((text) => ({ type: "output_text" as const, text }));
      if (blocks.length === 0) continue;
      if (!texts) {
        texts = [];
        out.push({ role: "assistant", content: texts });
      }
      texts.push(...blocks);
    }
  }
  return out.length > 0 ? out : [{ role: "assistant", content: [] }];
}
