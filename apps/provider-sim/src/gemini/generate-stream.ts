import type { Frame } from "../core/framing.ts";
import type { JsonObject } from "../core/json.ts";
import type { PlannedChoice, ReplyPlan } from "../core/reply-plan.ts";
import { countTokens } from "../core/tokens.ts";
import { interleave, splitForStream } from "../core/words.ts";
import {
  FINISH_REASON,
  functionCallParts,
  type GenerateMeta,
  imagePart,
  logprobsFields,
  thoughtSignature,
  usageMetadata,
} from "./generate-wire.ts";
import { IMAGE_OUTPUT_TOKENS } from "./image-output.ts";

// A streamGenerateContent answer: one GenerateContentResponse per chunk, thought parts first, then
// text pieces or the function calls, and, when the model thought and called no function, a final
// empty text part that carries the thoughtSignature (as Gemini 2.5/3 send it). The last chunk of
// each candidate has the finishReason. usageMetadata is on every chunk, cumulative, complete on the last.

type Step = {
  index: number;
  parts: JsonObject[];
  text?: string;
  thought?: string;
  toolTokens?: number;
  imageTokens?: number;
  finishReason?: string;
};

function candidateSteps(
  choice: PlannedChoice,
  index: number,
  plan: ReplyPlan,
  meta: GenerateMeta,
): Step[] {
  const signature = thoughtSignature(plan);
  const steps: Step[] = [];
  if (plan.thinking?.visible) {
    for (const thought of splitForStream(plan.thinking.text)) {
      steps.push({ index, parts: [{ text: thought, thought: true }], thought });
    }
  }
  if (choice.toolCalls.length > 0) {
    steps.push({
      index,
      parts: functionCallParts(choice, signature),
      toolTokens: choice.outputTokens,
    });
  } else if (choice.text !== "" || !meta.image) {
    for (const text of splitForStream(choice.text)) steps.push({ index, parts: [{ text }], text });
  }
  if (meta.image) {
    steps.push({ index, parts: [imagePart(meta, index)], imageTokens: IMAGE_OUTPUT_TOKENS });
  }
  if (signature && choice.toolCalls.length === 0) {
    steps.push({ index, parts: [{ text: "", thoughtSignature: signature }] });
  }
  if (steps.length === 0) steps.push({ index, parts: [{ text: "" }] });
  steps[steps.length - 1]!.finishReason = FINISH_REASON[choice.stop];
  return steps;
}

export function generateStreamFrames(meta: GenerateMeta, plan: ReplyPlan): Frame[] {
  const steps = interleave(
    plan.choices.map((choice, index) => candidateSteps(choice, index, plan, meta)),
  );
  const text = plan.choices.map(() => "");
  const thoughts = plan.choices.map(() => "");
  const toolTokens = plan.choices.map(() => 0);
  let imageTokens = 0;
  // Hidden thinking happens before the first chunk: its tokens are counted from the start.
  const hiddenThoughts = plan.thinking && !plan.thinking.visible ? plan.usage.thinkingTokens : 0;

  return steps.map((step) => {
    text[step.index] += step.text ?? "";
    // Each chunk's words carry their logprobs; the last chunk the mean of the whole candidate.
    const logprobs = meta.logprobs
      ? {
          ...logprobsFields(step.text ?? "", meta.logprobs.top, false),
          ...(step.finishReason
            ? { avgLogprobs: logprobsFields(text[step.index]!, 0, true)["avgLogprobs"] }
            : {}),
        }
      : {};
    thoughts[step.index] += step.thought ?? "";
    toolTokens[step.index]! += step.toolTokens ?? 0;
    imageTokens += step.imageTokens ?? 0;
    const candidates = text.reduce((n, t, i) => n + countTokens(t) + toolTokens[i]!, 0);
    const thought = hiddenThoughts + thoughts.reduce((n, t) => n + countTokens(t), 0);
    return {
      data: JSON.stringify({
        candidates: [
          {
            content: { parts: step.parts, role: "model" },
            ...(step.finishReason ? { finishReason: step.finishReason } : {}),
            index: step.index,
            ...logprobs,
          },
        ],
        usageMetadata: usageMetadata(plan.usage, candidates, thought, imageTokens),
        modelVersion: meta.model,
        responseId: meta.responseId,
      }),
    };
  });
}
