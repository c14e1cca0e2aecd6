import type { FinishReason, UnifiedFinishReason } from "@interlingua/core-types";
import { type ChatFinishReason, chatFinishReasons } from "./chat-api.js";

/** Chat `finish_reason` -> unified. Values not listed map to `other`, keeping the raw value. */
export const chatToUnifiedFinishReason: Readonly<Record<string, UnifiedFinishReason>> = {
  stop: "stop",
  length: "length",
  content_filter: "content-filter",
  tool_calls: "tool-calls",
  // The legacy function-calling API's reason; the same meaning as tool_calls.
  function_call: "tool-calls",
  // DeepSeek ends a reply this way when its servers run out of capacity.
  insufficient_system_resource: "error",
};

/**
 * Unified -> chat, for values that did not come from chat. Chat has no `error` or `other`
 * reason; `stop` is what its clients handle as "generation ended" (reported as a mapped warning).
 */
export const unifiedToChatFinishReason: Readonly<Record<UnifiedFinishReason, ChatFinishReason>> = {
  stop: "stop",
  length: "length",
  "tool-calls": "tool_calls",
  "content-filter": "content_filter",
  error: "stop",
  other: "stop",
};

const chatValues: ReadonlySet<string> = new Set(chatFinishReasons);

export function isChatFinishReason(value: string | undefined): value is ChatFinishReason {
  return value !== undefined && chatValues.has(value);
}

export function parseChatFinishReason(raw: string | null | undefined): FinishReason {
  if (raw === null || raw === undefined) return { unified: "other" };
  return {
    unified: Object.hasOwn(chatToUnifiedFinishReason, raw)
      ? chatToUnifiedFinishReason[raw]!
      : "other",
    raw,
  };
}

/** The raw value when it is a chat value (exact same-format round trips), else the table's. */
export function renderChatFinishReason(reason: FinishReason): ChatFinishReason {
  return isChatFinishReason(reason.raw) ? reason.raw : unifiedToChatFinishReason[reason.unified];
}

/** Whether rendering `reason` changes its meaning (error/other have no chat value). */
export function isFinishReasonMapped(reason: FinishReason): boolean {
  return (
    !isChatFinishReason(reason.raw) && (reason.unified === "error" || reason.unified === "other")
  );
}

/**
 * What chat cannot say of a block or refusal: it has `content_filter` and no field for the
 * reason (Gemini's block reason, an Anthropic refusal's category and explanation). `refusal` is
 * the model's own words and Azure's `content_filter_results` a fixed category set, so neither is
 * used; the loss is a warning instead. Undefined when nothing is lost.
 */
export function droppedBlockReason(reason: FinishReason): string | undefined {
  if (reason.unified !== "content-filter") return undefined;
  const said = [
    reason.raw !== undefined && !isChatFinishReason(reason.raw) ? reason.raw : undefined,
    reason.category,
    reason.explanation,
  ].filter((s) => s !== undefined);
  if (said.length === 0) return undefined;
  return `chat has no field for the block reason (${said.join("; ")}); "content_filter" was sent`;
}
