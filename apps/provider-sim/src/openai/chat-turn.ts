import { asArray, asNumber, asObject, asString, isObject, type JsonObject } from "../core/json.ts";
import {
  choiceCount,
  type ThinkingMode,
  type ToolChoice,
  type ToolSpec,
  type Turn,
} from "../core/turn.ts";
import { contentText, STRING_TOOL_CHOICES, segmentSize } from "./openai-turn-parts.ts";
import { chatPromptSegments, type PromptSegment } from "./prompt-segments.ts";

// Reads a chat-completions request into the neutral turn. Its size is the sum of the prompt
// segments the prefix cache works on.

/** The deprecated `functions` interface, which OpenAI still serves: one call, no id. */
export const usesLegacyFunctions = (body: JsonObject): boolean => Array.isArray(body.functions);

function readTools(body: JsonObject): ToolSpec[] {
  const tools: ToolSpec[] = [];
  for (const tool of asArray(body.tools)) {
    const fn = asObject(asObject(tool)?.function);
    const name = asString(fn?.name);
    if (name) tools.push({ name, schema: fn?.parameters });
  }
  for (const fn of asArray(body.functions).map(asObject)) {
    const name = asString(fn?.name);
    if (name) tools.push({ name, schema: fn?.parameters });
  }
  return tools;
}

/** `tool_choice`, or `function_call` ("none" | "auto" | {name}) with functions. */
function readToolChoice(body: JsonObject): ToolChoice {
  const value = usesLegacyFunctions(body) ? body.function_call : body.tool_choice;
  if (typeof value === "string") return STRING_TOOL_CHOICES[value] ?? { kind: "auto" };
  const object = asObject(value);
  const name = asString(asObject(object?.function)?.name) ?? asString(object?.name);
  return name ? { kind: "named", name } : { kind: "auto" };
}

/** Results answer `tool_calls` (`tool` messages) or a `function_call` (`function` messages). */
const isResult = (message: JsonObject) => message.role === "tool" || message.role === "function";

/** DeepSeek-style models stream their reasoning; OpenAI reasoning models only count it. */
const showsReasoning = (model: string) => /reasoner|r1/i.test(model);

function readThinking(model: string, body: JsonObject): ThinkingMode {
  if (showsReasoning(model)) return "visible";
  const effort = asString(body.reasoning_effort);
  return effort && effort !== "none" && effort !== "minimal" ? "hidden" : "off";
}

/** The turn, and the prompt as the segments its prefix cache works on. */
export type ChatTurn = Turn & { segments: PromptSegment[] };

export function readChatTurn(body: JsonObject): ChatTurn | string {
  const model = asString(body.model);
  if (!model) return "you must provide a model parameter";
  const messages = asArray(body.messages).filter(isObject);
  if (messages.length === 0) return "Missing required parameter: 'messages'.";

  let userText = "";
  for (const message of messages) {
    if (message.role === "user") userText = contentText(message.content);
  }
  const trailingResults: string[] = [];
  for (let i = messages.length - 1; i >= 0 && isResult(messages[i]!); i--) {
    trailingResults.unshift(contentText(messages[i]!.content));
  }
  const segments = chatPromptSegments(body, messages);
  const { promptChars, mediaParts } = segmentSize(segments);

  return {
    model,
    userText,
    toolResultText: trailingResults.length > 0 ? trailingResults.join("\n") : undefined,
    promptChars,
    mediaParts,
    cachedTokens: 0,
    tools: readTools(body),
    toolChoice: readToolChoice(body),
    thinking: readThinking(model, body),
    showsThinking: showsReasoning(model),
    maxTokens: asNumber(body.max_completion_tokens) ?? asNumber(body.max_tokens),
    choices: choiceCount(asNumber(body.n)),
    segments,
    ...outputSchemaOf(asObject(body.response_format)),
  };
}

/** `response_format`: a JSON schema to follow, or any JSON object for `json_object`. */
function outputSchemaOf(format: JsonObject | undefined): { outputSchema?: unknown } {
  if (format?.type === "json_schema") {
    return { outputSchema: asObject(format.json_schema)?.schema ?? { type: "object" } };
  }
  return format?.type === "json_object" ? { outputSchema: { type: "object" } } : {};
}
