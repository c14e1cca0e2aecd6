import type { PushTransformer, SseMessage, StreamEvent } from "@interlingua/core-types";
import type { PlainDeltaTest } from "./plain-delta.ts";

/**
 * How a same-format stream is watched: the upstream codec's push decoder turns its frames into
 * canonical events for `onEvent` (usage, finish reason, errors, generated text). A decoder failure
 * is reported once to `onDecodeError` and stops the watching, never the client's stream.
 *
 * With `plain`, frames its test calls plain content deltas are not decoded at all: they are
 * counted, and the first `SAMPLED_DELTAS` of them kept. What the tap must get right — usage, the
 * finish, errors — never rides on such a frame. Their characters only feed billing's estimate for
 * a stream that ends without its final usage, so they are measured only when asked
 * (`skippedChars`): the kept sample decoded by a fresh decoder, the other frames at its average
 * (a token per delta is typical, and OpenAI pads frames to hide their length, so an average per
 * frame estimates better than frame bytes). A stream that reports its usage never pays for it.
 */
export interface SseObserver {
  decoder: PushTransformer<SseMessage, StreamEvent>;
  onEvent: (event: StreamEvent) => void;
  onDecodeError: (error: unknown) => void;
  plain?:
    | {
        test: PlainDeltaTest;
        /** A fresh decoder of the stream's format, to measure the kept sample. */
        decoder: () => PushTransformer<SseMessage, StreamEvent>;
      }
    | undefined;
}

export interface SseWatch {
  see(message: SseMessage): void;
  end(): void;
  /**
   * How many more plain frames the watch keeps as its sample before the tap may skip plain runs
   * unparsed (0 once it has them; unbounded without a plain test).
   */
  samplesWanted(): number;
  /** `frames` plain deltas went by unparsed (runs skipped by the tap). */
  skipFrames(frames: number): void;
  /**
   * Characters of the plain frames that went by undecoded: the sample measured (decoded once,
   * on the first call), the rest at its average per frame that carried text.
   */
  skippedChars(): number;
}

export const SAMPLED_DELTAS = 8;

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

/**
 * A kept sample frame. Its data is copied out as bytes: the parsed string is a slice of the whole
 * chunk's text and would keep all of it alive for as long as the stream lasts.
 */
interface KeptFrame {
  data: Buffer;
  event: string | undefined;
}

const keep = (message: SseMessage): KeptFrame => ({
  data: Buffer.from(message.data, "utf8"),
  event: message.event,
});

/** The sample's characters, and those of the frames it stands for at its average. */
function measure(
  sample: KeptFrame[],
  frames: number,
  decoder: PushTransformer<SseMessage, StreamEvent>,
): number {
  let chars = 0;
  let withText = 0;
  for (const kept of sample) {
    const message: SseMessage = { data: kept.data.toString("utf8") };
    if (kept.event !== undefined) message.event = kept.event;
    let frameChars = 0;
    try {
      decoder.push(message, (event) => {
        frameChars += deltaChars(event);
      });
    } catch {
      // A frame the fresh decoder cannot read counts as no text.
    }
    chars += frameChars;
    if (frameChars > 0) withText++;
  }
  const rest = frames - sample.length;
  return withText === 0 ? chars : chars + (rest * chars) / withText;
}

/** The observer behind a guard: after its decoder failed once it sees nothing more. */
export function watchSse(observer: SseObserver): SseWatch {
  const { decoder, onEvent, onDecodeError, plain } = observer;
  let failed = false;
  const sample: KeptFrame[] = [];
  let plainFrames = 0;
  let measured: number | undefined;
  const fail = (error: unknown) => {
    failed = true;
    onDecodeError(error);
  };
  return {
    see(message) {
      if (failed) return;
      if (plain?.test(message) === true) {
        plainFrames++;
        if (sample.length < SAMPLED_DELTAS) sample.push(keep(message));
        return;
      }
      try {
        decoder.push(message, onEvent);
      } catch (error) {
        fail(error);
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
    samplesWanted: () =>
      plain === undefined ? Number.POSITIVE_INFINITY : SAMPLED_DELTAS - sample.length,
    skipFrames(frames) {
      plainFrames += frames;
    },
    skippedChars() {
      if (plain === undefined || plainFrames === 0) return 0;
      measured ??= measure(sample, plainFrames, plain.decoder());
      return measured;
    },
  };
}
