import type { SseMessage } from "@interlingua/core-types";

/**
 * Drops OpenAI's trailing usage chunk (`choices: []` with `usage`) from a chat stream whose
 * client did not ask for it: the gateway requested it for billing, and clients that index
 * `choices[0]` break on it.
 */
export function dropUsageOnlyChunks(): TransformStream<SseMessage, SseMessage> {
  return new TransformStream({
    transform(message, controller) {
      if (isUsageOnlyMessage(message)) return;
      controller.enqueue(message);
    },
  });
}

/** OpenAI's usage-only chunk: `choices: []` with `usage`. */
export function isUsageOnlyMessage(message: SseMessage): boolean {
  return message.data.includes('"choices":[]') && isUsageOnly(message.data);
}

function isUsageOnly(data: string): boolean {
  try {
    const chunk = JSON.parse(data) as { choices?: unknown; usage?: unknown };
    return Array.isArray(chunk.choices) && chunk.choices.length === 0 && chunk.usage != null;
  } catch {
    return false;
  }
}
