import type { FrameTap, PushTransformer, SseMessage, StreamEvent } from "@interlingua/core-types";
import { createSseSplitter } from "@interlingua/sse";
import { MalformedStreamError, wellFormedData } from "./well-formed-sse.ts";

/**
 * Plain deltas are only counted and sampled: usage, finish and errors never ride on them, and
 * their text matters only to billing's estimate when usage never comes. A decode failure stops
 * the watch, never the client's stream.
 */
export interface SseObserver {
  decoder: PushTransformer<SseMessage, StreamEvent>;
  onEvent: (event: StreamEvent) => void;
  onDecodeError: (error: unknown) => void;
  plain?:
    | {
        test: FrameTap["plain"];
        /** A fresh decoder of the stream's format, to measure the kept sample. */
        decoder: () => PushTransformer<SseMessage, StreamEvent>;
      }
    | undefined;
  /**
   * The stream's frames reach the client as they are (same format): a frame that is not JSON
   * throws `MalformedStreamError` instead of being relayed, so the stream ends with an error.
   */
  strict?: boolean;
}

export interface SseWatch {
  /** Whether malformed frames throw (`SseObserver.strict`); the tap checks skipped runs then. */
  readonly strict?: boolean;
  see(message: SseMessage): void;
  end(): void;
  /** How many more frames the watch keeps as its sample (0 once it has them). */
  samplesWanted(): number;
  /**
   * `frames` whole frames that the tap skips, as their bytes (copied: the view is only valid
   * during the call), for the sample. They are counted by `skipFrames` like the rest of the run.
   */
  keepSample(bytes: Uint8Array, frames: number): void;
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
 * A kept sample: a parsed frame, its data copied out as bytes (the parsed string is a slice of
 * the whole chunk's text and would keep all of it alive for as long as the stream lasts), or
 * skipped frames as their bytes.
 */
type Kept = { data: Buffer; event: string | undefined } | Buffer;

const keep = (message: SseMessage): Kept => ({
  data: Buffer.from(message.data, "utf8"),
  event: message.event,
});

function messagesOf(sample: readonly Kept[]): SseMessage[] {
  const messages: SseMessage[] = [];
  const splitter = createSseSplitter((message) => {
    if (message !== undefined) messages.push(message);
  });
  for (const kept of sample) {
    if (Buffer.isBuffer(kept)) {
      splitter.feed(kept.toString("utf8"));
      continue;
    }
    const message: SseMessage = { data: kept.data.toString("utf8") };
    if (kept.event !== undefined) message.event = kept.event;
    messages.push(message);
  }
  splitter.flush();
  return messages;
}

/** An average per frame, not frame bytes: OpenAI pads frames to hide their length. */
function measure(
  sample: readonly Kept[],
  frames: number,
  test: FrameTap["plain"],
  decoder: PushTransformer<SseMessage, StreamEvent>,
): number {
  let chars = 0;
  let sampled = 0;
  let withText = 0;
  for (const message of messagesOf(sample)) {
    let frameChars = 0;
    try {
      decoder.push(message, (event) => {
        frameChars += deltaChars(event);
      });
    } catch {
      // A frame the fresh decoder cannot read counts as no text.
    }
    // Skipped runs may hold other frames the tap had no need of (a block's start, a ping):
    // decoded in order, but the average is over the plain deltas.
    if (!test(message)) continue;
    sampled++;
    chars += frameChars;
    if (frameChars > 0) withText++;
  }
  const rest = Math.max(0, frames - sampled);
  return withText === 0 ? chars : chars + (rest * chars) / withText;
}

/** The observer behind a guard: after its decoder failed once it sees nothing more. */
export function watchSse(observer: SseObserver): SseWatch {
  return new Watch(observer);
}

/** A class, not a closure per method: one lives as long as each stream it watches. */
class Watch implements SseWatch {
  readonly strict: boolean;
  private readonly observer: SseObserver;
  private failed = false;
  private readonly sample: Kept[] = [];
  // Frames kept in the sample, whether parsed or skipped.
  private sampledFrames = 0;
  private plainFrames = 0;
  private measured: number | undefined = undefined;

  constructor(observer: SseObserver) {
    this.observer = observer;
    this.strict = observer.strict === true;
  }

  see(message: SseMessage): void {
    if (this.strict && !wellFormedData(message.data)) {
      throw new MalformedStreamError("upstream sent a stream frame that is not JSON");
    }
    if (this.failed) return;
    const { plain, decoder, onEvent } = this.observer;
    if (plain?.test(message) === true) {
      this.plainFrames++;
      if (this.sampledFrames < SAMPLED_DELTAS) {
        this.sample.push(keep(message));
        this.sampledFrames++;
      }
      return;
    }
    try {
      decoder.push(message, onEvent);
    } catch (error) {
      this.fail(error);
    }
  }

  end(): void {
    if (this.failed) return;
    try {
      this.observer.decoder.end(this.observer.onEvent);
    } catch (error) {
      this.fail(error);
    }
  }

  samplesWanted(): number {
    return this.observer.plain === undefined ? 0 : Math.max(0, SAMPLED_DELTAS - this.sampledFrames);
  }

  keepSample(bytes: Uint8Array, frames: number): void {
    if (frames === 0) return;
    this.sample.push(Buffer.from(bytes));
    this.sampledFrames += frames;
  }

  skipFrames(frames: number): void {
    this.plainFrames += frames;
  }

  skippedChars(): number {
    const plain = this.observer.plain;
    if (plain === undefined || this.plainFrames === 0) return 0;
    this.measured ??= measure(this.sample, this.plainFrames, plain.test, plain.decoder());
    return this.measured;
  }

  private fail(error: unknown): void {
    this.failed = true;
    this.observer.onDecodeError(error);
  }
}
