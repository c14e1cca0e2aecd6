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
  /** Sends bytes; false when the client takes no more for now (`Relay.resume` follows). */
  write(bytes: Uint8Array): boolean;
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
 * One stage per chunk instead of a chain of web streams; the upstream pauses while the client is
 * full. A failure ends with `stage.fail`'s frames, not a cut connection; after a disconnect the
 * upstream is drained briefly for its usage, within `DEFAULT_DRAIN` (issue 15, item 4).
 */
export function startRelay(
  upstream: StartedUpstreamBody,
  stage: RelayStage,
  options: RelayOptions,
  sink: RelaySink,
): Relay {
  const { rest } = upstream;
  let ended = false;
  let detached = false;
  let drained = 0;
  let outputSinceTick = false;
  // The sink said it takes no more for now; the upstream stays paused until `resume`.
  let blocked = false;
  let stopKeepAlive: (() => void) | undefined;
  let drainTimer: ReturnType<typeof setTimeout> | undefined;

  const finish = (end: StreamEnd) => {
    if (ended) return;
    ended = true;
    rest.off("data", onData).off("end", onEnd).off("error", onError);
    stopKeepAlive?.();
    clearTimeout(drainTimer);
    options.onEnd(end);
  };
  const bytesOf = (output: Uint8Array | string) =>
    typeof output === "string" ? Buffer.from(output, "utf8") : output;
  const send = (output: Uint8Array | string) => {
    if (detached || output.length === 0) return;
    outputSinceTick = true;
    if (!sink.write(bytesOf(output))) {
      blocked = true;
      rest.pause();
    }
  };
  const sendLast = (output: string) => {
    if (detached) return;
    if (output.length === 0) sink.end();
    else sink.end(bytesOf(output));
  };
  const fail = (error: unknown) => {
    if (!detached) {
      let last = "";
      try {
        last = stage.fail(error);
      } catch {
        // A stage that cannot even say it failed still ends the stream cleanly.
      }
      sendLast(last);
    }
    finish({ complete: false, clientDisconnected: detached, readError: describe(error) });
  };
  const stageThrew = (error: unknown) => {
    fail(error);
    rest.destroy();
  };

  function onData(chunk: Uint8Array) {
    if (detached) {
      drained += chunk.byteLength;
      if (drained > options.drain.maxBytes) {
        finish({ complete: false, clientDisconnected: true });
        rest.destroy();
        return;
      }
    }
    let output: Uint8Array | string;
    try {
      output = stage.push(chunk);
    } catch (error) {
      stageThrew(error);
      return;
    }
    send(output);
  }
  function onEnd() {
    let output: string;
    try {
      output = stage.end();
    } catch (error) {
      stageThrew(error);
      return;
    }
    sendLast(output);
    finish({ complete: true, clientDisconnected: detached });
  }
  function onError(error: unknown) {
    fail(error);
  }
  const tick = () => {
    if (!outputSinceTick && sink.waiting()) {
      const text = stage.keepAlive();
      if (text !== undefined) send(text);
    }
    outputSinceTick = false;
  };

  rest.on("data", onData).once("end", onEnd).once("error", onError);
  onData(upstream.first);
  // What the upstream delivered while the first chunk was on its way goes through now, in the
  // same tick, so a sink that coalesces one tick's writes (the Node server) sends it with the
  // first chunk. `read` hands it to `onData`; it returns null once nothing more is buffered.
  while (!ended && !blocked && rest.read() !== null);
  // The upstream may have ended, or failed, while its first chunk was on the way here.
  if (!ended && rest.errored) onError(rest.errored);
  else if (!ended && rest.readableEnded) onEnd();
  if (!ended) {
    if (options.keepAliveMs !== undefined) stopKeepAlive = everyPeriod(options.keepAliveMs, tick);
    // `readFirstChunk` left it paused.
    if (!blocked) rest.resume();
  }

  return {
    resume() {
      blocked = false;
      if (!ended && !detached) rest.resume();
    },
    detach() {
      if (ended || detached) return;
      detached = true;
      stopKeepAlive?.();
      drainTimer = setTimeout(() => {
        finish({ complete: false, clientDisconnected: true });
        rest.destroy();
      }, options.drain.maxMs);
      drainTimer.unref();
      rest.resume();
    },
  };
}
