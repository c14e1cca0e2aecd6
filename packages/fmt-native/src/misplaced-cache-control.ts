import type { WirePath } from "@interlingua/core-types";

/**
 * A cache boundary where docs/api-reference.md rule 1 puts none (on a tool entry or a function declaration): not
 * a tool and not a field Gemini accepts, so the codec does not carry it (parse and normalize drop
 * it). The gateway reports it from the client's body.
 */
export const MISPLACED_CACHE_CONTROL = "cache_control";

/**
 * Where a native client puts `cache_control`: Gemini takes none (it caches through
 * `cachedContents`), so on a body forwarded as sent these are the gateway's hint only
 * (docs/api-reference.md, caching rule 8), in both spellings of `systemInstruction` and of
 * function declarations.
 */
export const NATIVE_HINT_CACHE_CONTROL_AT: readonly WirePath[] = [
  ["cache_control"],
  ["contents", "*", "cache_control"],
  ["contents", "*", "parts", "*", "cache_control"],
  ["systemInstruction", "cache_control"],
  ["systemInstruction", "parts", "*", "cache_control"],
  ["system_instruction", "cache_control"],
  ["system_instruction", "parts", "*", "cache_control"],
  ["tools", "*", "cache_control"],
  ["tools", "*", "functionDeclarations", "*", "cache_control"],
  ["tools", "*", "function_declarations", "*", "cache_control"],
];
