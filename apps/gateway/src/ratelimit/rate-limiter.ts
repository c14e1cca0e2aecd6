import type { RateLimitConfig } from "../config/config-schema.ts";

/** Refused: try again after this many milliseconds. */
export type Admission =
  | { readonly ok: true }
  | { readonly ok: false; readonly retryAfterMs: number };

/**
 * Per-key request and token limits over a sliding minute. In process for one instance; the
 * scale-out issue backs the same interface with Redis, hence the promises.
 */
export interface RateLimiter {
  /** Admits one request under the key's rpm and tpm, counting it when admitted. */
  admit(key: string, limit: RateLimitConfig): Promise<Admission>;
  /** Counts the tokens a call really used toward the key's tpm. */
  recordTokens(key: string, tokens: number): Promise<void>;
}
