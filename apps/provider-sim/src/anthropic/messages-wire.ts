import type { PlannedToolCall, PlannedUsage, ReplyPlan, StopKind } from "../core/reply-plan.ts";
import { thinkingSignature } from "./thinking-signature.ts";

export type MessageMeta = { id: string; model: string };

export const STOP_REASON: Record<StopKind, string> = {
  end: "end_turn",
  max_tokens: "max_tokens",
  tool_use: "tool_use",
};

export function toolUseId(call: PlannedToolCall): string {
  return `toolu_${call.id}`;
}

/** input_tokens exclude cache reads and writes; output_tokens include thinking. */
export function messagesUsage(usage: PlannedUsage) {
  const written = usage.cacheWrite5mTokens + usage.cacheWrite1hTokens;
  return {
    input_tokens: usage.promptTokens - usage.cacheReadTokens - written,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: usage.cacheReadTokens,
    cache_creation: {
      ephemeral_5m_input_tokens: usage.cacheWrite5mTokens,
      ephemeral_1h_input_tokens: usage.cacheWrite1hTokens,
    },
    output_tokens: usage.outputTokens + usage.thinkingTokens,
    service_tier: "standard",
    inference_geo: "not_available",
  };
}

export type Block =
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "text"; text: string }
  | {
      type: "tool_use";
      id: string;
      name: string;
      input: Record<string, unknown>;
      /** As the API writes it (Anthropic's SDK types require it). */
      caller: { type: "direct" };
    };

/** The content blocks of the (single) choice, in order: thinking, then text or tool calls. */
export function contentBlocks(plan: ReplyPlan): Block[] {
  const choice = plan.choices[0]!;
  const blocks: Block[] = [];
  if (plan.thinking?.visible) {
    blocks.push({
      type: "thinking",
      thinking: plan.thinking.text,
      signature: thinkingSignature(plan.thinking.text),
    });
  }
  if (choice.toolCalls.length === 0) blocks.push({ type: "text", text: choice.text });
  for (const call of choice.toolCalls) {
    blocks.push({
      type: "tool_use",
      id: toolUseId(call),
      name: call.name,
      input: call.args,
      caller: { type: "direct" },
    });
  }
  return blocks;
}
