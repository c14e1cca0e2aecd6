import type { StartedUpstreamBody } from "../upstream/read-first-chunk.ts";
import { everyPeriod } from "./keep-alive-ticker.ts";
import type { RelayStage } from "./relay-stage.ts";

/**
 * How far an upstream stream whose client went away is read on before it is cancelled: its final
 * usage is often a frame or two away.
 */
export interface DrainLimits {
  /** Stop draining after this long. */
  maxMs: number;
  /** Stop draining after this many bytes. */
  maxBytes: number;
}

/** How a relayed stream ended, reported once. */
export interface StreamEnd {
  /** The source ran to its end (and, after a disconnect, was drained to it within the limits). */
  complete: boolean;
  clientDisconnected: boolean;
  /** Why reading the source failed, for the log. */
  readError?: string;
}

/** Where a relay's output goes: a web stream for `Response.body`, or the Node response itself. */
export interface RelaySink {
  /**
   * Sends bytes; false when the client takes no more for now (`Relay.resume` follows). `text`,
   * when the relay has it: the string the bytes were made of, or the bytes as Latin-1 (the two
   * agree whenever the bytes are ASCII, the only case a reader of it may rely on).
   */
  write(bytes: Uint8Array, text?: string): boolean;
  /** Ends the client's stream, with its last bytes if any (one write instead of two). */
  end(last?: Uint8Array): void;
  /** Whether the client is waiting for bytes (an idle stream gets keep-alives only then). */
  waiting(): boolean;
}

export interface Relay {
  /** The client takes bytes again after `write` said it did not. */
  resume(): void;
  /** The client went away: drain the upstream (bounded) for its usage, send nothing more. */
  detach(): void;
}

export interface RelayOptions {
  /** Idle time after which the stage's keep-alive is sent; undefined for none. */
  keepAliveMs: number | undefined;
  drain: DrainLimits;
  /** Called once, when the upstream has ended, failed, or (after a disconnect) been drained. */
  onEnd: (end: StreamEnd) => void;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One stage per read instead of a chain of web streams; the upstream pauses while the client is
 * full. A failure ends with `stage.fail`'s frames, not a cut connection; after a disconnect the
 * upstream is drained briefly for its usage, within `DEFAULT_DRAIN` (issue 15, item 4).
 */
export function startRelay(
  upstream: StartedUpstreamBody,
  stage: RelayStage,
  options: RelayOptions,
  sink: RelaySink,
): Relay {
  return new RunningRelay(upstream, stage, options, sink);
}

const bytesOf = (output: Uint8Array | string) =>
  typeof output === "string" ? Buffer.from(output, "utf8") : output;

/**
 * A class, not a closure per step: one lives as long as each stream it relays. Only the three
 * listeners on the upstream are closures of their own. The upstream is read, not let flow: undici
 * hands over each HTTP chunk on its own (often one SSE frame), and a read takes everything that
 * arrived in this tick at once, so the stage, the redaction and the socket see one piece where
 * a 'data' listener saw dozens. Nothing waits past the tick it arrived in.
 */
class RunningRelay implements Relay {
  private readonly rest: StartedUpstreamBody["rest"];
  private readonly stage: RelayStage;
  private readonly options: RelayOptions;
  private readonly sink: RelaySink;
  private ended = false;
  private detached = false;
  private drained = 0;
  private outputSinceTick = false;
  // The sink said it takes no more for now; the upstream stays paused until `resume`.
  private blocked = false;
  private stopKeepAlive: (() => void) | undefined = undefined;
  private drainTimer: ReturnType<typeof setTimeout> | undefined = undefined;
  private readonly onReadable = () => this.pump();
  private readonly onEnd = () => this.upstreamEnded();
  private readonly onError = (error: unknown) => this.fail(error);

  constructor(
    upstream: StartedUpstreamBody,
    stage: RelayStage,
    options: RelayOptions,
    sink: RelaySink,
  ) {
    const rest = upstream.rest;
    this.rest = rest;
    this.stage = stage;
    this.options = options;
    this.sink = sink;
    // All three are removed when the relay finishes (`once` would add a wrapper per listener).
    rest.on("readable", this.onReadable).on("end", this.onEnd).on("error", this.onError);
    // What the upstream delivered while the first chunk was on its way (usually the whole rest
    // of a short reply) goes through with it, as one piece, in this tick.
    const behind: Uint8Array | null = rest.readableLength > 0 ? rest.read() : null;
    this.data(behind === null ? upstream.first : Buffer.concat([upstream.first, behind]));
    this.pump();
    // The upstream may have ended, or failed, while its first chunk was on the way here.
    if (!this.ended && rest.errored) this.fail(rest.errored);
    else if (!this.ended && rest.readableEnded) this.upstreamEnded();
    if (!this.ended && options.keepAliveMs !== undefined) {
      this.stopKeepAlive = everyPeriod(options.keepAliveMs, () => this.tick());
    }
  }

  resume(): void {
    this.blocked = false;
    if (!this.ended && !this.detached) this.pump();
  }

  detach(): void {
    if (this.ended || this.detached) return;
    this.detached = true;
    this.stopKeepAlive?.();
    this.drainTimer = setTimeout(() => {
      this.finish({ complete: false, clientDisconnected: true });
      this.rest.destroy();
    }, this.options.drain.maxMs);
    this.drainTimer.unref();
    this.pump();
  }

  /**
   * Takes everything buffered, as one chunk per read (`read()` joins what is buffered), while
   * the client takes more or, after a disconnect, while draining. While the client is full the
   * rest stays buffered, and the upstream socket stops once that buffer is full.
   */
  private pump(): void {
    const rest = this.rest;
    while (!this.ended && (this.detached || !this.blocked)) {
      const chunk: Uint8Array | null = rest.read();
      if (chunk === null) return;
      this.data(chunk);
    }
  }

  private finish(end: StreamEnd): void {
    if (this.ended) return;
    this.ended = true;
    this.rest.off("readable", this.onReadable).off("end", this.onEnd).off("error", this.onError);
    this.stopKeepAlive?.();
    clearTimeout(this.drainTimer);
    this.options.onEnd(end);
  }

  private send(output: Uint8Array | string, text?: string): void {
    if (this.detached || output.length === 0) return;
    this.outputSinceTick = true;
    if (!this.sink.write(bytesOf(output), typeof output === "string" ? output : text)) {
      this.blocked = true;
    }
  }

  private sendLast(output: string): void {
    if (this.detached) return;
    if (output.length === 0) this.sink.end();
    else this.sink.end(bytesOf(output));
  }

  private fail(error: unknown): void {
    if (!this.detached) {
      let last = "";
      try {
        last = this.stage.fail(error);
      } catch {
        // A stage that cannot even say it failed still ends the stream cleanly.
      }
      this.sendLast(last);
    }
    this.finish({ complete: false, clientDisconnected: this.detached, readError: describe(error) });
  }

  private stageThrew(error: unknown): void {
    this.fail(error);
    this.rest.destroy();
  }

  private data(chunk: Uint8Array): void {
    if (this.detached) {
      this.drained += chunk.byteLength;
      if (this.drained > this.options.drain.maxBytes) {
        this.finish({ complete: false, clientDisconnected: true });
        this.rest.destroy();
        return;
      }
    }
    let output: Uint8Array | string;
    try {
      output = this.stage.push(chunk);
    } catch (error) {
      this.stageThrew(error);
      return;
    }
    // The chunk itself goes on with the text the stage read it as, if any (not decoded twice).
    this.send(output, output === chunk ? this.stage.pushedText?.() : undefined);
  }

  private upstreamEnded(): void {
    let output: string;
    try {
      output = this.stage.end();
    } catch (error) {
      this.stageThrew(error);
      return;
    }
    this.sendLast(output);
    this.finish({ complete: true, clientDisconnected: this.detached });
  }

  private tick(): void {
    if (!this.outputSinceTick && this.sink.waiting()) {
      const text = this.stage.keepAlive();
      if (text !== undefined) this.send(text);
    }
    this.outputSinceTick = false;
  }
}
