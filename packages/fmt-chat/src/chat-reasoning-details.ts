import type { AssistantPart, TextPart, ThinkingPart } from "@interlingua/core-types";
import { zLooseObject } from "@interlingua/core-types";
import * as z from "zod/mini";

/**
 * Opaque reasoning state in a chat message, so a client that appends `choices[0].message` as
 * received keeps a tool loop with thinking working. Two conventions exist and both are read:
 * OpenRouter's `reasoning_details` (also read by the Vercel AI SDK's OpenRouter provider, Zed,
 * Roo Code) and LiteLLM's `thinking_blocks` (read by the OpenAI Agents SDK's LiteLLM model).
 * One is written: `reasoning_details`, the only one with room for a Gemini thoughtSignature.
 *
 * - thinking part -> `{type: "reasoning.text", text, signature?, index}`
 * - redacted thinking -> `{type: "reasoning.encrypted", data, format: "anthropic-claude-v1", index}`
 * - signature on a tool call -> `{type: "reasoning.encrypted", data, id: <tool_call id>,
 *   format: "google-gemini-v1", index}`
 * - signature on visible text -> the same without `id`
 */
export const chatReasoningDetailSchema = zLooseObject({
  type: z.string(),
  text: z.nullish(z.string()),
  summary: z.nullish(z.string()),
  signature: z.nullish(z.string()),
  data: z.nullish(z.string()),
  id: z.nullish(z.string()),
  format: z.nullish(z.string()),
  index: z.nullish(z.number().check(z.int()).check(z.nonnegative())),
});
export type ChatReasoningDetail = z.infer<typeof chatReasoningDetailSchema>;

/** LiteLLM's spelling: Anthropic's own blocks, in the message. */
export const chatThinkingBlockSchema = zLooseObject({
  type: z.string(),
  thinking: z.nullish(z.string()),
  signature: z.nullish(z.string()),
  data: z.nullish(z.string()),
});
export type ChatThinkingBlock = z.infer<typeof chatThinkingBlockSchema>;

/** A reasoning detail as the codec writes it. */
export interface ChatReasoningDetailOut {
  type: "reasoning.text" | "reasoning.encrypted";
  text?: string;
  signature?: string;
  data?: string;
  id?: string;
  format?: string;
  index: number;
  [extra: string]: unknown;
}

export const REDACTED_FORMAT = "anthropic-claude-v1";
export const SIGNED_PART_FORMAT = "google-gemini-v1";

/** The detail one signed or opaque part needs; undefined for a part chat carries in full. */
export function reasoningDetailOf(
  part: AssistantPart,
  index: number,
): ChatReasoningDetailOut | undefined {
  switch (part.type) {
    case "thinking":
      return part.signature === undefined
        ? { type: "reasoning.text", text: part.text, index }
        : { type: "reasoning.text", text: part.text, signature: part.signature, index };
    case "redacted-thinking":
      return { type: "reasoning.encrypted", data: part.data, format: REDACTED_FORMAT, index };
    case "tool-call":
      if (part.signature === undefined) return undefined;
      return {
        type: "reasoning.encrypted",
        data: part.signature,
        id: part.id,
        format: SIGNED_PART_FORMAT,
        index,
      };
    case "text":
      if (part.signature === undefined) return undefined;
      return {
        type: "reasoning.encrypted",
        data: part.signature,
        format: SIGNED_PART_FORMAT,
        index,
      };
    default:
      return undefined;
  }
}

/**
 * `reasoning_details` for a message, or undefined when `reasoning_content` says it all (no
 * signature, no redacted thinking): plain reasoning stays exactly as before.
 */
export function renderReasoningDetails(
  parts: readonly AssistantPart[],
): ChatReasoningDetailOut[] | undefined {
  const needed = parts.some(
    (part) =>
      part.type === "redacted-thinking" || ("signature" in part && part.signature !== undefined),
  );
  if (!needed) return undefined;
  const out: ChatReasoningDetailOut[] = [];
  for (const part of parts) {
    const detail = reasoningDetailOf(part, out.length);
    if (detail !== undefined) out.push(detail);
  }
  return out;
}

/** What the message's reasoning fields say, read back into canonical parts. */
export interface ParsedReasoning {
  /** Thinking and redacted thinking, in order; undefined: fall back to `reasoning_content`. */
  thinking: (ThinkingPart | { type: "redacted-thinking"; data: string })[] | undefined;
  /** Signatures for tool calls by call id. */
  callSignatures: Map<string, string>;
  /** A signature for the message's visible text. */
  textSignature: string | undefined;
}

/**
 * Reads `reasoning_details` (preferred) or `thinking_blocks`. Entries of one `index` are merged
 * (a client that concatenated streamed deltas sends fragments), text joined and the signature
 * kept; entries are never reordered.
 */
export function parseReasoningDetails(
  details: readonly ChatReasoningDetail[] | null | undefined,
  blocks: readonly ChatThinkingBlock[] | null | undefined,
): ParsedReasoning {
  const out: ParsedReasoning = {
    thinking: undefined,
    callSignatures: new Map(),
    textSignature: undefined,
  };
  if (details != null && details.length > 0) {
    const thinking: NonNullable<ParsedReasoning["thinking"]> = [];
    let last: { index: number | undefined; part: ThinkingPart } | undefined;
    for (const detail of details) {
      const index = detail.index ?? undefined;
      if (detail.type === "reasoning.text" || detail.type === "reasoning.summary") {
        const fragment = detail.text ?? detail.summary ?? "";
        if (last !== undefined && index !== undefined && last.index === index) {
          last.part.text += fragment;
          if (detail.signature) last.part.signature = detail.signature;
          continue;
        }
        const part: ThinkingPart = { type: "thinking", text: fragment };
        if (detail.signature) part.signature = detail.signature;
        thinking.push(part);
        last = { index, part };
        continue;
      }
      last = undefined;
      if (detail.type !== "reasoning.encrypted" || !detail.data) continue;
      if (detail.id) out.callSignatures.set(detail.id, detail.data);
      else if (detail.format === SIGNED_PART_FORMAT) out.textSignature ??= detail.data;
      else thinking.push({ type: "redacted-thinking", data: detail.data });
    }
    if (thinking.length > 0) out.thinking = thinking;
    return out;
  }
  if (blocks != null && blocks.length > 0) {
    const thinking: NonNullable<ParsedReasoning["thinking"]> = [];
    for (const block of blocks) {
      if (block.type === "thinking") {
        const part: ThinkingPart = { type: "thinking", text: block.thinking ?? "" };
        if (block.signature) part.signature = block.signature;
        thinking.push(part);
      } else if (block.type === "redacted_thinking" && block.data) {
        thinking.push({ type: "redacted-thinking", data: block.data });
      }
    }
    if (thinking.length > 0) out.thinking = thinking;
  }
  return out;
}

/**
 * Builds an assistant message's parts in chat's fixed order (reasoning, text, tool calls) with
 * the signatures of `reasoning` put back where they came from.
 */
export function withReasoning(
  reasoning: ParsedReasoning,
  reasoningContent: string | null | undefined,
  texts: TextPart[],
  calls: AssistantPart[],
): AssistantPart[] {
  const parts: AssistantPart[] = [];
  if (reasoning.thinking !== undefined) parts.push(...reasoning.thinking);
  else if (reasoningContent) parts.push({ type: "thinking", text: reasoningContent });
  if (reasoning.textSignature !== undefined) {
    const first = texts[0];
    if (first === undefined)
      texts.push({ type: "text", text: "", signature: reasoning.textSignature });
    else first.signature = reasoning.textSignature;
  }
  parts.push(...texts);
  for (const call of calls) {
    if (call.type === "tool-call") {
      const signature = reasoning.callSignatures.get(call.id);
      if (signature !== undefined) call.signature = signature;
    }
    parts.push(call);
  }
  return parts;
}
