import { asArray, asNumber, asObject, asString, isObject, type JsonObject } from "../core/json.ts";
import type { ToolChoice, ToolSpec, Turn } from "../core/turn.ts";
import { type PromptBlock, promptBlocks, resultText } from "./prompt-blocks.ts";
import { thinkingSignature } from "./thinking-signature.ts";

// Reads a Messages request into the neutral turn, and refuses thinking blocks whose signature
// does not match their text. Its size is the sum of the prompt blocks the cache works on.

/** The text of a block, when it is text. */
const textOf = (block: JsonObject): string | undefined =>
  block.type === "text" ? asString(block.text) : undefined;

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

/** The turn, and the prompt blocks its cache breakpoints sit on. */
export type MessagesTurn = Turn & { blocks: PromptBlock[] };

export function readMessagesTurn(body: JsonObject): MessagesTurn | string {
  const model = asString(body.model);
  if (!model) return "model: Field required";
  const maxTokens = asNumber(body.max_tokens);
  if (maxTokens === undefined) return "max_tokens: Field required";
  const messages = asArray(body.messages).filter(isObject);
  if (messages.length === 0) return "messages: Field required";
  const invalid = badSignature(messages);
  if (invalid) return invalid;

  let userText = "";
  let toolResults: string[] | undefined;
  for (const message of messages) {
    if (message.role !== "user") continue;
    const blocks =
      typeof message.content === "string"
        ? [{ type: "text", text: message.content }]
        : asArray(message.content).filter(isObject);
    const results = blocks.filter((block) => block.type === "tool_result");
    toolResults =
      results.length > 0 ? results.map((block) => resultText(block.content)) : undefined;
    if (!toolResults)
      userText = blocks
        .map(textOf)
        .filter((t) => t !== undefined)
        .join("\n");
  }
  const last = messages[messages.length - 1]!;
  const blocks = promptBlocks(body, messages);

  return {
    model,
    userText,
    toolResultText: last.role === "user" && toolResults ? toolResults.join("\n") : undefined,
    promptChars: blocks.reduce((n, block) => n + block.chars, 0),
    mediaParts: blocks.reduce((n, block) => n + block.media, 0),
    cachedTokens: 0,
    tools: readTools(body),
    toolChoice: readToolChoice(body.tool_choice),
    thinking: THINKING_TYPES.has(String(asObject(body.thinking)?.type)) ? "visible" : "off",
    showsThinking: true,
    maxTokens,
    choices: 1,
    blocks,
    ...(asObject(asObject(body.output_config)?.format)?.type === "json_schema"
      ? { outputSchema: asObject(asObject(body.output_config)?.format)?.schema }
      : {}),
  };
}
