import type { ReplyPlan } from "../core/reply-plan.ts";
import { contentBlocks, type MessageMeta, messagesUsage, STOP_REASON } from "./messages-wire.ts";

export function message(meta: MessageMeta, plan: ReplyPlan) {
  return {
    model: meta.model,
    id: meta.id,
    type: "message",
    role: "assistant",
    content: contentBlocks(plan),
    stop_reason: STOP_REASON[plan.choices[0]!.stop],
    stop_sequence: null,
    usage: messagesUsage(plan.usage),
  };
}
