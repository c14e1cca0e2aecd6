import { asArray, asNumber, asObject, asString, isObject, type JsonObject } from "../core/json.ts";
import type { ToolChoice, ToolSpec, Turn } from "../core/turn.ts";
import { thinkingSignature } from "./thinking-signature.ts";

// Reads a Messages request into the neutral turn, and refuses thinking blocks whose signature
// does not match their text.

type Count = { chars: number; media: number };

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  return asArray(content)
    .map((block) => asString(asObject(block)?.text) ?? "")
    .join("\n");
}

/** Counts one block; returns its text when it is text. */
function countBlock(block: JsonObject, count: Count): string | undefined {
  switch (block.type) {
    case "text":
      count.chars += (asString(block.text) ?? "").length;
      return asString(block.text);
    case "thinking":
      count.chars += (asString(block.thinking) ?? "").length;
      return undefined;
    case "tool_use":
      count.chars += (asString(block.name) ?? "").length + JSON.stringify(block.input ?? {}).length;
      return undefined;
    case "tool_result":
      count.chars += resultText(block.content).length;
      return undefined;
    case "redacted_thinking":
      return undefined;
    default:
      count.media += 1; // image, document, search_result...
      return undefined;
  }
}

function badSignature(messages: JsonObject[]): string | undefined {
  for (const [m, message] of messages.entries()) {
    if (message.role !== "assistant") continue;
    for (const [b, block] of asArray(message.content).entries()) {
      const thinking = asObject(block);
      if (thinking?.type !== "thinking") continue;
      if (thinking.signature !== thinkingSignature(asString(thinking.thinking) ?? "")) {
        return `messages.${m}.content.${b}: Invalid \`signature\` in \`thinking\` block`;
      }
    }
  }
  return undefined;
}

function readTools(body: JsonObject): ToolSpec[] {
  const tools: ToolSpec[] = [];
  for (const tool of asArray(body.tools)) {
    const t = asObject(tool);
    const name = asString(t?.name);
    // Server tools (web search, code execution) have a versioned type and no input_schema.
    if (t && name && t.input_schema !== undefined) tools.push({ name, schema: t.input_schema });
  }
  return tools;
}

function readToolChoice(value: unknown): ToolChoice {
  const choice = asObject(value);
  const name = asString(choice?.name);
  switch (choice?.type) {
    case "none":
      return { kind: "none" };
    case "any":
      return { kind: "any" };
    case "tool":
      return name ? { kind: "named", name } : { kind: "any" };
    default:
      return { kind: "auto" };
  }
}

const THINKING_TYPES = new Set(["enabled", "adaptive"]);

export function readMessagesTurn(body: JsonObject): Turn | string {
  const model = asString(body.model);
  if (!model) return "model: Field required";
  const maxTokens = asNumber(body.max_tokens);
  if (maxTokens === undefined) return "max_tokens: Field required";
  const messages = asArray(body.messages).filter(isObject);
  if (messages.length === 0) return "messages: Field required";
  const invalid = badSignature(messages);
  if (invalid) return invalid;

  const count: Count = { chars: resultText(body.system).length, media: 0 };
  let userText = "";
  let toolResults: string[] | undefined;
  for (const message of messages) {
    const blocks =
      typeof message.content === "string"
        ? [{ type: "text", text: message.content }]
        : asArray(message.content).filter(isObject);
    const texts = blocks.map((block) => countBlock(block, count)).filter((t) => t !== undefined);
    if (message.role !== "user") continue;
    const results = blocks.filter((block) => block.type === "tool_result");
    toolResults =
      results.length > 0 ? results.map((block) => resultText(block.content)) : undefined;
    if (!toolResults) userText = texts.join("\n");
  }
  const last = messages[messages.length - 1]!;
  if (body.tools !== undefined) count.chars += JSON.stringify(body.tools).length;

  return {
    model,
    userText,
    toolResultText: last.role === "user" && toolResults ? toolResults.join("\n") : undefined,
    promptChars: count.chars,
    mediaParts: count.media,
    cachedTokens: 0,
    tools: readTools(body),
    toolChoice: readToolChoice(body.tool_choice),
    thinking: THINKING_TYPES.has(String(asObject(body.thinking)?.type)) ? "visible" : "off",
    showsThinking: true,
    maxTokens,
    choices: 1,
  };
}
