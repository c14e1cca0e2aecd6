import { zObject } from "@interlingua/core-types";
import * as z from "zod/mini";

// OpenAI's `POST /v1/audio/transcriptions` reply in its richest form, `verbose_json`, from which
// every other `response_format` is rendered (openai-transcription-render.ts): a gateway asks its
// upstream for verbose_json and answers whichever format the client wanted.

export * from "./openai-transcription-format.js";
export * from "./openai-transcription-render.js";
export * from "./openai-transcription-request.js";
export * from "./openai-transcription-timestamp.js";

export const transcriptionSegmentSchema = zObject({
  id: z.int(),
  seek: z.number(),
  start: z.number(),
  end: z.number(),
  text: z.string(),
  tokens: z.array(z.int()),
  temperature: z.number(),
  avg_logprob: z.number(),
  compression_ratio: z.number(),
  no_speech_prob: z.number(),
});
export type TranscriptionSegment = z.infer<typeof transcriptionSegmentSchema>;

/**
 * docs/api-reference.md's verbose_json: json's `text` plus `task` (always transcribe), `language`, `duration`
 * in seconds and the segments. Fields an upstream adds (`words`, `usage`) are dropped on parse;
 * a reply without `segments` (word timestamps only) reads as none.
 */
export const transcriptionVerboseSchema = zObject({
  task: z.literal("transcribe"),
  language: z.string(),
  duration: z.number().check(z.nonnegative()),
  text: z.string(),
  segments: z._default(z.array(transcriptionSegmentSchema), []),
});
export type VerboseTranscription = z.infer<typeof transcriptionVerboseSchema>;

/** An upstream's verbose_json body, or the reason it does not fit (a malformed upstream reply). */
export function parseVerboseTranscription(
  body: unknown,
): { ok: true; value: VerboseTranscription } | { ok: false; message: string } {
  const parsed = transcriptionVerboseSchema.safeParse(body);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? "" : `${issue.path.join(".")}: `;
  return {
    ok: false,
    message: `not a verbose_json transcription: ${where}${issue?.message ?? ""}`,
  };
}
