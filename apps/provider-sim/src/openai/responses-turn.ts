import { asArray, asNumber, asObject, asString, isObject, type JsonObject } from "../core/json.ts";
import type { ThinkingMode, ToolChoice, ToolSpec, Turn } from "../core/turn.ts";
import { contentText, STRING_TOOL_CHOICES, segmentSize } from "./openai-turn-parts.ts";
import type { PromptSegment } from "./prompt-segments.ts";

// Reads a Responses API request (`POST /v1/responses`) into the neutral turn: `instructions`,
// `input` as a string or as items (messages, function_call, function_call_output, reasoning),
// flat function tools, `max_output_tokens`, `reasoning.effort`. Its prompt is cut into the same
// segments as a chat prompt, so OpenAI's prefix cache works on it alike.

/** Parts that are neither text nor a string: images and files. */
function mediaParts(content: unknown): JsonObject[] {
  return asArray(content).filter(
    (part): part is JsonObject => isObject(part) && typeof part.text !== "string",
  );
}

/** Items as a list; a string input is one user message. */
function inputItems(body: JsonObject): JsonObject[] {
  if (typeof body.input === "string") return [{ role: "user", content: body.input }];
  return asArray(body.input).filter(isObject);
}

/** What an item says to the model, as the text its tokens are counted from. */
const ITEM_TEXT: Record<string, (item: JsonObject) => string> = {
  message: (item) => contentText(item.content),
  function_call: (item) => (asString(item.name) ?? "") + (asString(item.arguments) ?? ""),
  function_call_output: (item) => contentText(item.output),
  custom_tool_call: (item) => (asString(item.name) ?? "") + (asString(item.input) ?? ""),
  custom_tool_call_output: (item) => contentText(item.output),
  // The model reads its own earlier reasoning back from the opaque content.
  reasoning: (item) => asString(item.encrypted_content) ?? "",
};

const itemType = (item: JsonObject) => asString(item.type) ?? "message";

function promptSegments(body: JsonObject, items: JsonObject[]): PromptSegment[] {
  const segments: PromptSegment[] = [];
  if (body.tools !== undefined)
    segments.push({ kind: "text", marker: "tools", text: JSON.stringify(body.tools) });
  const instructions = asString(body.instructions);
  if (instructions) segments.push({ kind: "text", marker: "instructions", text: instructions });
  items.forEach((item, i) => {
    const type = itemType(item);
    const marker = `${i}:${type}:${asString(item.role) ?? ""}`;
    const text = ITEM_TEXT[type]?.(item) ?? "";
    if (text !== "") segments.push({ kind: "text", marker, text });
    const content = type.endsWith("_call_output") ? item.output : item.content;
    for (const part of mediaParts(content)) {
      segments.push({ kind: "media", marker: `${marker}/media`, part });
    }
  });
  return segments;
}

/** A free-form tool's input, as the simulated model writes it: one string. */
const CUSTOM_INPUT_SCHEMA = {
  type: "object",
  properties: { input: { type: "string" } },
  required: ["input"],
};

/** Function and custom tools, also those inside a `namespace` tool (Codex CLI sends all three). */
function readTools(body: JsonObject): ToolSpec[] {
  const tools: ToolSpec[] = [];
  const add = (t: JsonObject | undefined, namespace: string | undefined) => {
    const name = asString(t?.name);
    if (!name) return;
    const at = namespace === undefined ? {} : { namespace };
    if (t?.type === "function") tools.push({ name, schema: t.parameters, ...at });
    if (t?.type === "custom")
      tools.push({ name, schema: CUSTOM_INPUT_SCHEMA, custom: true, ...at });
  };
  for (const tool of asArray(body.tools)) {
    const t = asObject(tool);
    if (t?.type === "namespace") {
      for (const inner of asArray(t.tools)) add(asObject(inner), asString(t.name));
    } else add(t, undefined);
  }
  return tools;
}

function readToolChoice(value: unknown): ToolChoice {
  if (typeof value === "string") return STRING_TOOL_CHOICES[value] ?? { kind: "auto" };
  const name = asString(asObject(value)?.name);
  return name ? { kind: "named", name } : { kind: "auto" };
}

/** OpenAI reasoning models reason when an effort is set; the text itself stays hidden. */
function readThinking(body: JsonObject): ThinkingMode {
  const effort = asString(asObject(body.reasoning)?.effort);
  return effort && effort !== "none" ? "hidden" : "off";
}

export type ResponsesTurn = Turn & {
  segments: PromptSegment[];
  items: JsonObject[];
  /** `reasoning.summary` was asked for: reasoning items carry a summary. */
  wantsSummary: boolean;
  /** `include: ["reasoning.encrypted_content"]`: reasoning items carry their opaque content. */
  wantsEncrypted: boolean;
};

export function readResponsesTurn(body: JsonObject): ResponsesTurn | string {
  const model = asString(body.model);
  if (!model) return "Missing required parameter: 'model'.";
  const items = inputItems(body);
  if (items.length === 0) return "Missing required parameter: 'input'.";

  let userText = "";
  for (const item of items) {
    if (itemType(item) === "message" && item.role === "user") userText = contentText(item.content);
  }
  const trailingResults: string[] = [];
  const isOutput = (item: JsonObject) =>
    itemType(item) === "function_call_output" || itemType(item) === "custom_tool_call_output";
  for (let i = items.length - 1; i >= 0 && isOutput(items[i]!); i--) {
    trailingResults.unshift(contentText(items[i]!.output));
  }
  const segments = promptSegments(body, items);
  const { promptChars, mediaParts: media } = segmentSize(segments);
  const reasoning = asObject(body.reasoning);
  return {
    model,
    userText,
    toolResultText: trailingResults.length > 0 ? trailingResults.join("\n") : undefined,
    promptChars,
    mediaParts: media,
    cachedTokens: 0,
    tools: readTools(body),
    toolChoice: readToolChoice(body.tool_choice),
    thinking: readThinking(body),
    showsThinking: false,
    maxTokens: asNumber(body.max_output_tokens),
    choices: 1,
    segments,
    items,
    wantsSummary: typeof reasoning?.summary === "string",
    wantsEncrypted: asArray(body.include).includes("reasoning.encrypted_content"),
    ...(asObject(asObject(body.text)?.format)?.type === "json_schema"
      ? { outputSchema: asObject(asObject(body.text)?.format)?.schema ?? { type: "object" } }
      : {}),
  };
}
