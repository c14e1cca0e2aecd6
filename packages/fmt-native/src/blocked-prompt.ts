import type { Choice, FinishReason, PromptFeedback } from "@interlingua/core-types";

/**
 * Gemini answers a prompt it blocks with `promptFeedback.blockReason` and no candidates. Read
 * literally that is `choices: []` (or a stream without a finish), which OpenAI SDKs treat as a
 * broken reply. So a blocked prompt reads as choice 0 with no content, finished
 * `content-filter` with the block reason as its raw value: every client format then shows its
 * own content-filter stop, and the prompt feedback stays beside it where a format has room.
 * Rendering back to this format recognises that choice and writes no candidate again.
 */
export const blockedFinishReason = (blockReason: string): FinishReason => ({
  unified: "content-filter",
  raw: blockReason,
});

export const blockedChoice = (blockReason: string): Choice => ({
  index: 0,
  message: { role: "assistant", parts: [] },
  finishReason: blockedFinishReason(blockReason),
});

/** Whether `choices` is exactly what `blockedChoice` makes for this feedback. */
export function isBlockedPrompt(
  choices: readonly Choice[],
  feedback: PromptFeedback | undefined,
): boolean {
  const only = choices[0];
  return (
    feedback?.blockReason !== undefined &&
    choices.length === 1 &&
    only !== undefined &&
    isBlockedFinish(only, feedback.blockReason) &&
    only.index === 0 &&
    only.message.parts.length === 0 &&
    only.finishReason.explanation === undefined &&
    only.providerExtras === undefined &&
    only.stopSequence === undefined &&
    only.logprobs === undefined
  );
}

export const isBlockedFinish = (
  event: { finishReason: FinishReason },
  blockReason: string | undefined,
): boolean =>
  blockReason !== undefined &&
  event.finishReason.unified === "content-filter" &&
  event.finishReason.raw === blockReason;
