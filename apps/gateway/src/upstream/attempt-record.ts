import type { UpstreamFailure } from "./upstream-failure.ts";

/** One try against one channel, for the request log. */
export interface AttemptRecord {
  channel: string;
  outcome:
    | "ok"
    | "skipped-open-circuit"
    | "refused-by-render"
    | "stale-cache"
    | "client-gone"
    | "queue-timeout"
    | UpstreamFailure["kind"];
  status?: number;
  ms: number;
}

/** Starts timing one attempt on a channel; the function it returns records how it ended. */
export function attemptRecorder(attempts: AttemptRecord[], channel: string) {
  const started = performance.now();
  return (outcome: AttemptRecord["outcome"], status?: number): void => {
    attempts.push({
      channel,
      outcome,
      ...(status === undefined ? {} : { status }),
      ms: Math.round(performance.now() - started),
    });
  };
}
