import type { SseMessage } from "@interlingua/core-types";

/**
 * OpenAI's usage-only chunk: `choices: []` with `usage`. The gateway asks for it for billing; a
 * client that did not must not get it (clients that index `choices[0]` break on it).
 */
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
