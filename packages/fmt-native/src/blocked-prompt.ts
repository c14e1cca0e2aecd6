import type { FinishReason, IndexedOutput, PromptFeedback } from "@interlingua/core-types";

/**
 * Gemini answers a prompt it blocks with `promptFeedback.blockReason` and no candidates. Read
 * literally that is a response without output (`noOutput`; or a stream without a finish), which
 * a chat client would see as `choices: []`, a broken reply to OpenAI SDKs. So a blocked prompt
 * reads as a primary output with no content, finished `content-filter` with the block reason as
 * its raw value: every client format then shows its own content-filter stop, and the prompt
 * feedback stays beside it where a format has room. Rendering back to this format recognises
 * that output and writes no candidate again.
 */
export const blockedFinishReason = (blockReason: string): FinishReason => ({
  unified: "content-filter",
  raw: blockReason,
});

export const blockedOutput = (blockReason: string): IndexedOutput => ({
  index: 0,
  message: { role: "assistant", parts: [] },
  finishReason: blockedFinishReason(blockReason),
});

/** Whether `outputs` (core-types `outputsOf`) is exactly what `blockedOutput` makes for this feedback. */
export function isBlockedPrompt(
  outputs: readonly IndexedOutput[],
  feedback: PromptFeedback | undefined,
): boolean {
  const only = outputs[0];
  return (
    feedback?.blockReason !== undefined &&
    outputs.length === 1 &&
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
