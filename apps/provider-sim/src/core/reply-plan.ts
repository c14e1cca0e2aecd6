import type { Directives } from "./directives.ts";
import { hexId } from "./hash.ts";
import { type CacheUsage, explicitCacheUsage } from "./prompt-cache.ts";
import { sampleArguments, sampleValue } from "./schema-sample.ts";
import { CHARS_PER_TOKEN, countTokens, promptTokens } from "./tokens.ts";
import type { ToolSpec, Turn } from "./turn.ts";
import { generatedWords } from "./words.ts";

// What the simulated model answers, decided once from the request; each protocol renders it.

export type StopKind = "end" | "max_tokens" | "tool_use";

export type PlannedToolCall = {
  /** Stable per request and position; protocols prefix it (`call_`, `toolu_`). */
  id: string;
  name: string;
  args: Record<string, unknown>;
  argsJson: string;
};

export type PlannedChoice = {
  text: string;
  toolCalls: PlannedToolCall[];
  stop: StopKind;
  /** Visible output tokens of this choice (text and tool calls), thinking excluded. */
  outputTokens: number;
};

export type PlannedUsage = {
  /** Every prompt token, cached ones included. */
  promptTokens: number;
  cacheReadTokens: number;
  cacheWrite5mTokens: number;
  cacheWrite1hTokens: number;
  /** Visible output over all choices. */
  outputTokens: number;
  /** Thinking over all choices. */
  thinkingTokens: number;
};

export type ReplyPlan = {
  thinking: { text: string; visible: boolean } | undefined;
  choices: PlannedChoice[];
  usage: PlannedUsage;
};

function chooseTools(turn: Turn, d: Directives): ToolSpec[] {
  const choice = turn.toolChoice;
  if (choice.kind === "none" || turn.tools.length === 0 || turn.toolResultText !== undefined) {
    return [];
  }
  const chosen = new Map<string, ToolSpec>();
  for (const name of d.toolNames) {
    const tool = turn.tools.find((t) => t.name === name);
    if (tool) chosen.set(name, tool);
  }
  for (const tool of turn.tools.slice(0, d.toolCount)) chosen.set(tool.name, tool);
  if (chosen.size === 0 && choice.kind === "named") {
    const tool = turn.tools.find((t) => t.name === choice.name);
    if (tool) chosen.set(tool.name, tool);
  }
  if (chosen.size === 0 && choice.kind === "any") chosen.set(turn.tools[0]!.name, turn.tools[0]!);
  return [...chosen.values()];
}

function replyText(turn: Turn, d: Directives): string {
  // Structured output: a value of the schema, the tool result (if any) in its first string.
  if (turn.outputSchema !== undefined)
    return JSON.stringify(sampleValue(turn.outputSchema, "value"));
  if (turn.toolResultText !== undefined) return `echo: ${turn.toolResultText}`;
  if (d.words !== undefined) return generatedWords(d.words);
  return `echo: ${d.text}`;
}

function thinkingText(turn: Turn, d: Directives): string {
  return `thinking about: ${turn.toolResultText ?? d.text}`;
}

/**
 * `cache` is what the protocol's prompt cache served and stored for this request (Anthropic
 * breakpoints, OpenAI prefixes); by default only a Gemini `cachedContent` reference counts.
 */
export function planReply(
  turn: Turn,
  d: Directives,
  seed: string,
  cache: CacheUsage = explicitCacheUsage(turn),
): ReplyPlan {
  const tools = d.max ? [] : chooseTools(turn, d);
  const base = replyText(turn, d);
  const thinks = d.think || turn.thinking !== "off";
  const visible = turn.showsThinking && (d.think || turn.thinking === "visible");
  const thinking = thinks ? { text: thinkingText(turn, d), visible } : undefined;

  const choices = Array.from({ length: turn.choices }, (_, index): PlannedChoice => {
    const toolCalls = tools.map((tool, position) => {
      const args = sampleArguments(tool.schema);
      return {
        id: hexId(`${seed}:${index}:${position}`),
        name: tool.name,
        args,
        argsJson: JSON.stringify(args),
      };
    });
    if (toolCalls.length > 0) {
      const outputTokens = toolCalls.reduce((n, c) => n + countTokens(c.name + c.argsJson), 0);
      return { text: "", toolCalls, stop: "tool_use", outputTokens };
    }
    let text = index === 0 ? base : `${base} (choice ${index})`;
    let stop: StopKind = d.max ? "max_tokens" : "end";
    if (turn.maxTokens !== undefined && countTokens(text) > turn.maxTokens) {
      text = text.slice(0, Math.max(0, turn.maxTokens) * CHARS_PER_TOKEN);
      stop = "max_tokens";
    }
    return { text, toolCalls: [], stop, outputTokens: countTokens(text) };
  });

  return {
    thinking,
    choices,
    usage: {
      promptTokens: promptTokens(turn.promptChars, turn.mediaParts) + turn.cachedTokens,
      cacheReadTokens: cache.readTokens,
      cacheWrite5mTokens: cache.write5mTokens,
      cacheWrite1hTokens: cache.write1hTokens,
      outputTokens: choices.reduce((n, c) => n + c.outputTokens, 0),
      thinkingTokens: thinking ? countTokens(thinking.text) * choices.length : 0,
    },
  };
}
