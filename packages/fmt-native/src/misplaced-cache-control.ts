/**
 * A cache boundary where docs/api-reference.md rule 1 puts none (on a tool entry or a function declaration): not
 * a tool and not a field Gemini accepts, so the codec does not carry it (parse and normalize drop
 * it). The gateway reports it from the client's body.
 */
export const MISPLACED_CACHE_CONTROL = "cache_control";
