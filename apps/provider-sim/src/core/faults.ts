// Fault specs, from the `x-sim-fault` header or a `[[fault:...]]` directive:
// comma-, semicolon- or space-separated `name` or `name=value` items, e.g. `status=429,retry-after=2`.

export type Fault = {
  /** Answer with this HTTP status in the protocol's error shape. */
  status: number | undefined;
  /** Seconds advertised by Retry-After (OpenAI, Anthropic) or RetryInfo (Gemini); 429s default to 1. */
  retryAfterSeconds: number | undefined;
  /** Milliseconds before the first byte. */
  latencyMs: number;
  /** Milliseconds between stream chunks. */
  chunkDelayMs: number;
  /**
   * The last this-many stream chunks follow the one before them at once, however long
   * `chunkDelayMs` is: a provider sends its usage report and end marker right after the finish.
   */
  promptTail: number;
  /** Destroy the connection after this many stream chunks (non-stream: before the body). */
  resetAfter: number | undefined;
  /** Index of the stream chunk sent as invalid JSON (non-stream: the body is cut in half). */
  malformedAt: number | undefined;
  /** Send the protocol's in-stream error event after this many chunks, then end the stream. */
  errorAfter: number | undefined;
  /** Never answer, until the client disconnects. */
  hang: boolean;
  /** Apply the fault to the first N matching requests only, then answer normally. */
  times: number | undefined;
  /**
   * Gemini `POST cachedContents` only: answer with this status, while generateContent and every
   * other endpoint answer normally (a cache that cannot be created, the request still can).
   */
  cacheCreateStatus: number | undefined;
};

export const NO_FAULT: Fault = {
  status: undefined,
  retryAfterSeconds: undefined,
  latencyMs: 0,
  chunkDelayMs: 0,
  promptTail: 0,
  resetAfter: undefined,
  malformedAt: undefined,
  errorAfter: undefined,
  hang: false,
  times: undefined,
  cacheCreateStatus: undefined,
};

export class FaultSpecError extends Error {}

function integer(name: string, value: string | undefined, min: number): number {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n < min) {
    throw new FaultSpecError(`fault "${name}" needs an integer >= ${min}, got "${value ?? ""}"`);
  }
  return n;
}

const ITEMS: Record<string, (fault: Fault, value: string | undefined, name: string) => void> = {
  status: (f, v, n) => {
    f.status = integer(n, v, 400);
  },
  "retry-after": (f, v, n) => {
    f.retryAfterSeconds = integer(n, v, 0);
  },
  latency: (f, v, n) => {
    f.latencyMs = integer(n, v, 0);
  },
  "chunk-delay": (f, v, n) => {
    f.chunkDelayMs = integer(n, v, 0);
  },
  tail: (f, v, n) => {
    f.promptTail = integer(n, v, 0);
  },
  "reset-after": (f, v, n) => {
    f.resetAfter = integer(n, v, 0);
  },
  malformed: (f, v, n) => {
    f.malformedAt = v === undefined ? 1 : integer(n, v, 0);
  },
  "error-after": (f, v, n) => {
    f.errorAfter = integer(n, v, 0);
  },
  hang: (f) => {
    f.hang = true;
  },
  times: (f, v, n) => {
    f.times = integer(n, v, 1);
  },
  "cache-create": (f, v, n) => {
    f.cacheCreateStatus = integer(n, v, 400);
  },
};

export function parseFault(spec: string): Fault {
  const fault = { ...NO_FAULT };
  for (const item of spec.split(/[\s,;]+/)) {
    if (!item) continue;
    const [name = "", value] = item.split("=", 2);
    const apply = ITEMS[name];
    if (!apply) throw new FaultSpecError(`unknown fault "${name}"`);
    apply(fault, value, name);
  }
  return fault;
}

/** Caps every delay, so a fault can slow a test down but never wedge it. */
export function capFault(fault: Fault, capMs: number): Fault {
  return {
    ...fault,
    latencyMs: Math.min(fault.latencyMs, capMs),
    chunkDelayMs: Math.min(fault.chunkDelayMs, capMs),
  };
}
