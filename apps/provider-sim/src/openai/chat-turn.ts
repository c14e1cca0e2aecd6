import { asArray, asNumber, asObject, asString, isObject, type JsonObject } from "../core/json.ts";
import {
  choiceCount,
  type ThinkingMode,
  type ToolChoice,
  type ToolSpec,
  type Turn,
} from "../core/turn.ts";

// Reads a chat-completions request into the neutral turn.

type Count = { chars: number; media: number };

function countContent(content: unknown, into: Count): string {
  if (typeof content === "string") {
    into.chars += content.length;
    return content;
  }
  const texts: string[] = [];
  for (const part of asArray(content)) {
    const p = asObject(part);
    if (!p) continue;
    if (typeof p.text === "string") {
      into.chars += p.text.length;
      texts.push(p.text);
    } else {
      into.media += 1; // image_url, input_audio, file
    }
  }
  return texts.join("\n");
}

function readTools(body: JsonObject): ToolSpec[] {
  const tools: ToolSpec[] = [];
  for (const tool of asArray(body.tools)) {
    const fn = asObject(asObject(tool)?.function);
    const name = asString(fn?.name);
    if (name) tools.push({ name, schema: fn?.parameters });
  }
  return tools;
}

const CHOICES: Record<string, ToolChoice> = {
  none: { kind: "none" },
  auto: { kind: "auto" },
  required: { kind: "any" },
};

function readToolChoice(value: unknown): ToolChoice {
  if (typeof value === "string") return CHOICES[value] ?? { kind: "auto" };
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

export function readChatTurn(body: JsonObject): Turn | string {
  const model = asString(body.model);
  if (!model) return "you must provide a model parameter";
  const messages = asArray(body.messages).filter(isObject);
  if (messages.length === 0) return "Missing required parameter: 'messages'.";

  const count: Count = { chars: 0, media: 0 };
  let userText = "";
  for (const message of messages) {
    const text = countContent(message.content, count);
    if (message.role === "user") userText = text;
    for (const call of asArray(message.tool_calls)) {
      const fn = asObject(asObject(call)?.function);
      count.chars += (asString(fn?.name) ?? "").length + (asString(fn?.arguments) ?? "").length;
    }
  }
  const trailingResults: string[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]!.role === "tool"; i--) {
    trailingResults.unshift(countContent(messages[i]!.content, { chars: 0, media: 0 }));
  }
  const tools = readTools(body);
  if (body.tools !== undefined) count.chars += JSON.stringify(body.tools).length;

  return {
    model,
    userText,
    toolResultText: trailingResults.length > 0 ? trailingResults.join("\n") : undefined,
    promptChars: count.chars,
    mediaParts: count.media,
    cachedTokens: 0,
    tools,
    toolChoice: readToolChoice(body.tool_choice),
    thinking: readThinking(model, body),
    showsThinking: showsReasoning(model),
    maxTokens: asNumber(body.max_completion_tokens) ?? asNumber(body.max_tokens),
    choices: choiceCount(asNumber(body.n)),
  };
}
