import type { VerboseTranscription } from "./openai-transcription.js";
import {
  TRANSCRIPTION_CONTENT_TYPES,
  type TranscriptionFormat,
} from "./openai-transcription-format.js";
import { formatCueMillis, toCueMillis } from "./openai-transcription-timestamp.js";

/** A rendered transcription body and the media type to answer it with. */
export interface RenderedTranscription {
  readonly body: string;
  readonly contentType: string;
}

/** One subtitle cue, in whole milliseconds. */
export interface TranscriptionCue {
  readonly startMs: number;
  readonly endMs: number;
  /** One or more non-empty lines, joined by `\n`. */
  readonly text: string;
}

// A blank line ends a cue in both formats, so a segment's text keeps its non-empty lines only.
const cueLines = (text: string): string =>
  text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join("\n");

/**
 * The cues of a transcription: one per segment with text, in order. WebVTT wants cue starts that
 * never decrease, and neither format allows an end before its start, so a start earlier than the
 * previous cue's is moved up to it and an end is never before its own start (after rounding).
 * A reply without segments but with text is one cue over the whole duration.
 */
export function transcriptionCues(verbose: VerboseTranscription): TranscriptionCue[] {
  const spans =
    verbose.segments.length === 0
      ? [{ start: 0, end: verbose.duration, text: verbose.text }]
      : verbose.segments;
  const cues: TranscriptionCue[] = [];
  let previousStart = 0;
  for (const span of spans) {
    const text = cueLines(span.text);
    if (text === "") continue;
    const startMs = Math.max(previousStart, toCueMillis(span.start));
    const endMs = Math.max(startMs, toCueMillis(span.end));
    cues.push({ startMs, endMs, text });
    previousStart = startMs;
  }
  return cues;
}

// WebVTT cue text is markup: `&`, `<` and `>` are escaped (which also keeps `-->` out of it).
const escapeVtt = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** SubRip: numbered cues, `hh:mm:ss,mmm --> hh:mm:ss,mmm`, each ended by a blank line. */
export function renderSrt(verbose: VerboseTranscription): string {
  return transcriptionCues(verbose)
    .map(
      (cue, i) =>
        `${i + 1}\n${formatCueMillis(cue.startMs, ",")} --> ${formatCueMillis(cue.endMs, ",")}\n${cue.text}\n\n`,
    )
    .join("");
}

/** WebVTT: the `WEBVTT` header, then `hh:mm:ss.mmm --> hh:mm:ss.mmm` cues. */
export function renderVtt(verbose: VerboseTranscription): string {
  const cues = transcriptionCues(verbose).map(
    (cue) =>
      `${formatCueMillis(cue.startMs, ".")} --> ${formatCueMillis(cue.endMs, ".")}\n${escapeVtt(cue.text)}\n\n`,
  );
  return `WEBVTT\n\n${cues.join("")}`;
}

const RENDERERS: Record<TranscriptionFormat, (verbose: VerboseTranscription) => string> = {
  json: (v) => JSON.stringify({ text: v.text }),
  // OpenAI's text body ends with a newline.
  text: (v) => `${v.text}\n`,
  srt: renderSrt,
  vtt: renderVtt,
  // Only docs/api-reference.md's fields, in its order: upstream extras (`words`, `usage`) are not passed on.
  verbose_json: (v) =>
    JSON.stringify({
      task: v.task,
      language: v.language,
      duration: v.duration,
      text: v.text,
      segments: v.segments,
    }),
};

/** Any `response_format` rendered from a verbose result. */
export function renderTranscription(
  verbose: VerboseTranscription,
  format: TranscriptionFormat,
): RenderedTranscription {
  return { body: RENDERERS[format](verbose), contentType: TRANSCRIPTION_CONTENT_TYPES[format] };
}
