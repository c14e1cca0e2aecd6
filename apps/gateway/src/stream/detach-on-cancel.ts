/**
 * What happens to an upstream stream whose client went away: it is not cancelled but read on
 * (bounded) to its end, so its final usage is still seen. `relayStream` implements it.
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
