import type { StreamPosition } from "@interlingua/sse";

/**
 * One client stream's conversion, run synchronously on each upstream chunk by `startRelay`:
 * pass-through with a usage tap, re-framing, or translation between formats. Empty text means
 * nothing to send yet.
 */
export interface RelayStage {
  /** The client's bytes for one upstream chunk: the chunk itself untouched, or new text. */
  push(chunk: Uint8Array): Uint8Array | string;
  /** What is left to send once the upstream ended. */
  end(): string;
  /** The last words after the upstream failed (or the stage threw): an error in the client's format. */
  fail(error: unknown): string;
  /** A keep-alive for an idle stream that fits where the output stands now, if one fits. */
  keepAlive(): string | undefined;
  /**
   * The chunk the last `push` returned untouched, as the Latin-1 text the stage read it as, if it
   * did: handed to the sink (`RelaySink.write`) so a stream is not decoded twice.
   */
  pushedText?(): string | undefined;
}

const KEEP_ALIVE = ": keep-alive";

/**
 * The SSE keep-alive comment for an output position: a whole comment frame between frames, a lone
 * comment line after a finished line inside one, nothing mid-line (it would change the line).
 */
export function keepAliveAt(position: StreamPosition, eol: string): string | undefined {
  if (position === "frame") return KEEP_ALIVE + eol + eol;
  if (position === "line") return KEEP_ALIVE + eol;
  return undefined;
}
