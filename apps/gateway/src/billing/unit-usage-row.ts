import type { UsageLogInput } from "../storage/store.ts";

/** The fields a call priced in units rather than tokens sets itself. */
export type UnitUsage = Omit<
  UsageLogInput,
  | "promptTokens"
  | "completionTokens"
  | "cachedTokens"
  | "cacheWriteTokens"
  | "thinkingTokens"
  | "stream"
>;

/**
 * The usage log row of a call priced in units (characters of speech, minutes of audio, seconds
 * of video, images): no token counts, never a stream. Media calls and tasks write theirs so.
 */
export const unitUsageRow = (row: UnitUsage): UsageLogInput => ({
  ...row,
  promptTokens: 0,
  completionTokens: 0,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  thinkingTokens: 0,
  stream: false,
});
