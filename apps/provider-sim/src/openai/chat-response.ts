import type { ReplyPlan } from "../core/reply-plan.ts";
import {
  type CompletionMeta,
  chatUsage,
  FINISH_REASON,
  SYSTEM_FINGERPRINT,
  toolCallId,
} from "./chat-wire.ts";

export function chatCompletion(meta: CompletionMeta, plan: ReplyPlan) {
  const reasoning = plan.thinking?.visible ? { reasoning_content: plan.thinking.text } : {};
  return {
    id: meta.id,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    choices: plan.choices.map((choice, index) => ({
      index,
      message: {
        role: "assistant",
        content: choice.toolCalls.length > 0 ? null : choice.text,
        ...reasoning,
        ...(choice.toolCalls.length > 0
          ? {
              tool_calls: choice.toolCalls.map((call) => ({
                id: toolCallId(call),
                type: "function",
                function: { name: call.name, arguments: call.argsJson },
              })),
            }
          : {}),
        refusal: null,
        annotations: [],
      },
      logprobs: null,
      finish_reason: FINISH_REASON[choice.stop],
    })),
    usage: chatUsage(plan.usage),
    service_tier: "default",
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
}
