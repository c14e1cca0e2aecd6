/**
 * Whether a chat stream chunk (an SSE message's `data`) is the usage-only chunk that
 * `stream_options.include_usage` adds at the end: `choices: []` with `usage`. A gateway that asks
 * for it to bill a stream keeps it from a client that did not (clients that index `choices[0]`
 * break on it). Only the compact `"choices":[]` that OpenAI writes is looked for, so every other
 * chunk is told apart by one string search, without a parse.
 */
export function isChatUsageOnlyChunk(data: string): boolean {
  // `[]` first: the engine finds it far faster than a key that starts with a quote, and most
  // chunks have no empty array at all.
  if (!data.includes("[]") || !data.includes('"choices":[]')) return false;
  try {
    const chunk = JSON.parse(data) as { choices?: unknown; usage?: unknown };
    return Array.isArray(chunk.choices) && chunk.choices.length === 0 && chunk.usage != null;
  } catch {
    return false;
  }
}
