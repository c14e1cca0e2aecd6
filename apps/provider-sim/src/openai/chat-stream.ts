import type { Frame } from "../core/framing.ts";
import type { PlannedChoice, ReplyPlan } from "../core/reply-plan.ts";
import { interleave, splitArguments, splitForStream } from "../core/words.ts";
import {
  type CompletionMeta,
  chatUsage,
  FINISH_REASON,
  legacyFinish,
  SYSTEM_FINGERPRINT,
  toolCallId,
} from "./chat-wire.ts";

// A chat-completions stream: role chunk, reasoning/content/tool-call deltas per choice (choices
// interleaved), one finish chunk per choice, the usage chunk with `choices: []` when
// stream_options.include_usage is set, then `[DONE]`.

type Delta = Record<string, unknown>;
type ChoiceDelta = { index: number; delta: Delta; finish: string | null };

function choiceDeltas(
  choice: PlannedChoice,
  index: number,
  plan: ReplyPlan,
  legacy: boolean,
): ChoiceDelta[] {
  const at = (delta: Delta, finish: string | null = null) => ({ index, delta, finish });
  const reasoning = plan.thinking?.visible ? plan.thinking.text : undefined;
  const hasTools = choice.toolCalls.length > 0;
  const deltas: ChoiceDelta[] = [];

  if (reasoning !== undefined) {
    deltas.push(at({ role: "assistant", content: null, reasoning_content: "" }));
    for (const piece of splitForStream(reasoning)) {
      deltas.push(at({ content: null, reasoning_content: piece }));
    }
  } else {
    deltas.push(
      at(
        hasTools
          ? { role: "assistant", content: null }
          : { role: "assistant", content: "", refusal: null },
      ),
    );
  }
  for (const piece of splitForStream(choice.text)) {
    deltas.push(
      at(
        reasoning !== undefined ? { content: piece, reasoning_content: null } : { content: piece },
      ),
    );
  }
  choice.toolCalls.forEach((call, position) => {
    // With `functions` the one call streams as `function_call`, name first, then its arguments.
    if (legacy) {
      if (position > 0) return;
      deltas.push(at({ function_call: { name: call.name, arguments: "" } }));
      for (const fragment of splitArguments(call.argsJson)) {
        deltas.push(at({ function_call: { arguments: fragment } }));
      }
      return;
    }
    deltas.push(
      at({
        tool_calls: [
          {
            index: position,
            id: toolCallId(call),
            type: "function",
            function: { name: call.name, arguments: "" },
          },
        ],
      }),
    );
    for (const fragment of splitArguments(call.argsJson)) {
      deltas.push(at({ tool_calls: [{ index: position, function: { arguments: fragment } }] }));
    }
  });
  deltas.push(at({}, legacyFinish(FINISH_REASON[choice.stop], legacy)));
  return deltas;
}

export function chatStreamFrames(
  meta: CompletionMeta,
  plan: ReplyPlan,
  includeUsage: boolean,
  legacy = false,
): Frame[] {
  const head = {
    id: meta.id,
    object: "chat.completion.chunk",
    created: meta.created,
    model: meta.model,
    service_tier: "default",
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
  const usageField = includeUsage ? { usage: null } : {};
  const deltas = interleave(
    plan.choices.map((choice, index) => choiceDeltas(choice, index, plan, legacy)),
  );
  const frames: Frame[] = deltas.map(({ index, delta, finish }) => ({
    data: JSON.stringify({
      ...head,
      choices: [{ index, delta, logprobs: null, finish_reason: finish }],
      ...usageField,
    }),
  }));
  if (includeUsage) {
    frames.push({ data: JSON.stringify({ ...head, choices: [], usage: chatUsage(plan.usage) }) });
  }
  frames.push({ data: "[DONE]" });
  return frames;
}
