import type { ReplyPlan } from "../core/reply-plan.ts";
import {
  type CompletionMeta,
  chatUsage,
  FINISH_REASON,
  legacyFinish,
  SYSTEM_FINGERPRINT,
  toolCallId,
} from "./chat-wire.ts";

/** `legacy`: the request used `functions`; the first call is `function_call` (chat-turn.ts). */
export function chatCompletion(meta: CompletionMeta, plan: ReplyPlan, legacy = false) {
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
        ...(legacy && choice.toolCalls[0] !== undefined
          ? {
              function_call: {
                name: choice.toolCalls[0].name,
                arguments: choice.toolCalls[0].argsJson,
              },
            }
          : choice.toolCalls.length > 0
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
      finish_reason: legacyFinish(FINISH_REASON[choice.stop], legacy),
    })),
    usage: chatUsage(plan.usage),
    service_tier: "default",
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
}
