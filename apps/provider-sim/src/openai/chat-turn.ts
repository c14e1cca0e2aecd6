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

function readTools(body: JsonObject): ToolSpec[] {
  const tools: ToolSpec[] = [];
  for (const tool of asArray(body.tools)) {
    const fn = asObject(asObject(tool)?.function);
    const name = asString(fn?.name);
    if (name) tools.push({ name, schema: fn?.parameters });
  }
  return tools;
}

function readToolChoice(value: unknown): ToolChoice {
  if (typeof value === "string") return STRING_TOOL_CHOICES[value] ?? { kind: "auto" };
  const name = asString(asObject(asObject(value)?.function)?.name);
  return name ? { kind: "named", name } : { kind: "auto" };
}

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
  for (let i = messages.length - 1; i >= 0 && messages[i]!.role === "tool"; i--) {
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
    toolChoice: readToolChoice(body.tool_choice),
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
