import type { PushTransformer, SseMessage, StreamEvent } from "@interlingua/core-types";
import type { PlainDeltaTest } from "./plain-delta.ts";

/**
 * How a same-format stream is watched: the upstream codec's push decoder turns its frames into
 * canonical events for `onEvent` (usage, finish reason, errors, generated text). A decoder failure
 * is reported once to `onDecodeError` and stops the watching, never the client's stream.
 *
 * With `plainDelta`, frames are decoded until `SAMPLED_DELTAS` of them carried text and nothing
 * the tap needs (by their events); after that a frame that `plainDelta` calls a plain content
 * delta is counted as the average generated characters of the sample (`onSkippedChars`) without
 * decoding. What the tap must get right — usage, the finish, errors — never rides on such a
 * frame; the character count only feeds billing's estimate for a stream that ends without its
 * usage (a token per delta is typical, and OpenAI pads frames to hide their length, so an average
 * per frame estimates better than frame bytes).
 */
export interface SseObserver {
  decoder: PushTransformer<SseMessage, StreamEvent>;
  onEvent: (event: StreamEvent) => void;
  onDecodeError: (error: unknown) => void;
  plainDelta?: PlainDeltaTest | undefined;
  onSkippedChars?: (chars: number) => void;
}

export interface SseWatch {
  see(message: SseMessage): void;
  end(): void;
  /** Whether the sample of plain deltas is complete (later ones need not be decoded). */
  sampled(): boolean;
  /** `frames` plain deltas went by undecoded (whole chunks skipped by the tap). */
  skipFrames(frames: number): void;
}

export const SAMPLED_DELTAS = 8;

/** Events that make a frame more than a content delta: it is no sample. */
const NOT_A_SAMPLE: ReadonlySet<StreamEvent["type"]> = new Set([
  "usage",
  "finish",
  "error",
  "prompt-feedback",
]);

function deltaChars(event: StreamEvent): number {
  switch (event.type) {
    case "text-delta":
    case "thinking-delta":
    case "tool-arguments-delta":
      return event.delta.length;
    default:
      return 0;
  }
}

/** The observer behind a guard: after its decoder failed once it sees nothing more. */
export function watchSse(observer: SseObserver): SseWatch {
  const { decoder, onEvent, onDecodeError, plainDelta, onSkippedChars } = observer;
  let failed = false;
  let sampled = 0;
  let sampledChars = 0;
  // Text of the frame being decoded (a frame with no text, such as OpenAI's first `role`
  // chunk, is not a sample, nor is one that also says what the tap needs).
  let frameChars = 0;
  let frameNeeded = false;
  const fail = (error: unknown) => {
    failed = true;
    onDecodeError(error);
  };
  const sampling = (event: StreamEvent) => {
    frameChars += deltaChars(event);
    if (NOT_A_SAMPLE.has(event.type)) frameNeeded = true;
    onEvent(event);
  };
  return {
    see(message) {
      if (failed) return;
      if (sampled >= SAMPLED_DELTAS && plainDelta?.(message) === true) {
        onSkippedChars?.(sampledChars / sampled);
        return;
      }
      frameChars = 0;
      frameNeeded = false;
      try {
        decoder.push(message, sampling);
      } catch (error) {
        fail(error);
        return;
      }
      if (frameChars > 0 && !frameNeeded) {
        sampled++;
        sampledChars += frameChars;
      }
    },
    end() {
      if (failed) return;
      try {
        decoder.end(onEvent);
      } catch (error) {
        fail(error);
      }
    },
    sampled: () => plainDelta !== undefined && sampled >= SAMPLED_DELTAS,
    skipFrames(frames) {
      if (frames > 0 && sampled > 0) onSkippedChars?.((frames * sampledChars) / sampled);
    },
  };
}
