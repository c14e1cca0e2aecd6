/**
 * Events the encoder can write, biased towards the characters SSE framing cares about. Data is
 * any well-formed text without CR (SSE carries CR in data only as a line break, read back as
 * LF); event names are one non-empty line (an empty `event:` reads back as absent); ids are one
 * line without NULL; retry is a non-negative integer.
 */
import fc from "fast-check";
import type { SseComment, SseEvent, SseFrame } from "../src/index.js";

const awkward = fc.constantFrom(
  "\n",
  ":",
  " ",
  "\uFEFF",
  "\0",
  "\t",
  "é",
  "€",
  "😀",
  "\u2028",
  "\u0085",
  "data: x",
  "event: y",
  "[DONE]",
);
const codePoint = fc.string({ unit: "binary", minLength: 1, maxLength: 1 });
const unit = fc.oneof({ weight: 1, arbitrary: awkward }, { weight: 3, arbitrary: codePoint });

export const sseText = fc.string({ unit, maxLength: 40 }).map((s) => s.replace(/\r/g, ""));
const oneLine = sseText.map((s) => s.replace(/\n/g, ""));

export const sseEvent: fc.Arbitrary<SseEvent> = fc.record(
  {
    event: oneLine.filter((s) => s.length > 0),
    data: sseText,
    id: oneLine.map((s) => s.replace(/\0/g, "")),
    retry: fc.nat(),
  },
  { requiredKeys: ["data"] },
);

export const sseComment: fc.Arbitrary<SseComment> = fc.record({ comment: sseText });

export const sseFrames: fc.Arbitrary<SseFrame[]> = fc.array(
  fc.oneof({ weight: 4, arbitrary: sseEvent }, { weight: 1, arbitrary: sseComment }),
  { maxLength: 8 },
);

/** What decoding the frames gives: the events, and one comment per comment line. */
export function expectedOf(frames: readonly SseFrame[]): {
  events: SseEvent[];
  comments: string[];
} {
  const events = frames.filter((f): f is SseEvent => !("comment" in f));
  const comments = frames.flatMap((f) => ("comment" in f ? f.comment.split("\n") : []));
  return { events, comments };
}

/** Byte offsets to cut at; the splitter drops those out of range. */
export const cuts = fc.array(fc.nat({ max: 4000 }), { maxLength: 24 });
