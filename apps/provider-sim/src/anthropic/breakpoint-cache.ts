import { asObject } from "../core/json.ts";
import { prefixHasher } from "../core/prefix-hasher.ts";
import { type CacheUsage, NO_CACHE_USAGE, type PromptCacheStore } from "../core/prompt-cache.ts";
import { promptTokens } from "../core/tokens.ts";
import type { PromptBlock } from "./prompt-blocks.ts";

// Anthropic prompt caching (explicit `cache_control` breakpoints), as the Messages API documents
// it: the prefix up to and including a breakpoint block (tools, then system, then messages) is
// written on first use and read by later requests with the same prefix within its ttl; each hit
// refreshes the ttl. A breakpoint also finds an entry up to 20 blocks before it (the API's
// lookback). Prefixes below the minimum are simply not cached, without an error.

/**
 * The smallest prefix the simulator caches, for every model. Real minimums differ by model
 * (1024 to 4096 tokens); one number keeps tests independent of model names.
 */
const ANTHROPIC_MIN_CACHE_TOKENS = 1024;
/** At most this many blocks may carry cache_control. */
const ANTHROPIC_MAX_BREAKPOINTS = 4;
const LOOKBACK_BLOCKS = 20;
const TTL_MS = { "5m": 5 * 60_000, "1h": 60 * 60_000 } as const;
type Ttl = keyof typeof TTL_MS;

/** Thinking blocks have no cache_control field at all. */
const CANNOT_CARRY = new Set(["thinking", "redacted_thinking"]);

const ttlOf = (control: unknown): unknown => asObject(control)?.ttl ?? "5m";

/**
 * The API's 400 for a misplaced or malformed breakpoint, in its own words, or undefined. Checks
 * type and ttl of each, thinking blocks, the count, and the ttl order (a 1h breakpoint may not
 * follow a 5m one).
 */
export function cacheControlError(blocks: readonly PromptBlock[]): string | undefined {
  const controls = blocks.flatMap((block) =>
    block.controls.map((control) => ({ ...control, block })),
  );
  for (const { path, value, block } of controls) {
    if (CANNOT_CARRY.has(block.type) && path === block.path)
      return `${path}.${block.type}.cache_control: Extra inputs are not permitted`;
    if (asObject(value)?.type !== "ephemeral")
      return `${path}.cache_control.type: Input should be 'ephemeral'`;
    if (!(String(ttlOf(value)) in TTL_MS))
      return `${path}.cache_control.ttl: Input should be '5m' or '1h'`;
  }
  if (controls.length > ANTHROPIC_MAX_BREAKPOINTS)
    return `A maximum of ${ANTHROPIC_MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${controls.length}.`;
  const firstShort = controls.findIndex((control) => ttlOf(control.value) === "5m");
  const late = controls.find(
    (control, i) => i > firstShort && firstShort >= 0 && ttlOf(control.value) === "1h",
  );
  if (late !== undefined)
    return `${late.path}.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: \`tools\`, \`system\`, \`messages\`.`;
  return undefined;
}

/**
 * Reads and writes the prompt cache for one valid request; `scope` keeps API keys and models
 * apart. Returns the tokens read (the longest live prefix found) and written (from there up to
 * the last breakpoint at or above the minimum), the writes split by the ttl of the breakpoint
 * that closes each stretch.
 */
export function breakpointCacheUsage(
  blocks: readonly PromptBlock[],
  store: PromptCacheStore,
  scope: string,
): CacheUsage {
  const breakpoints = blocks.flatMap((block, i) =>
    block.controls.length > 0 ? [{ at: i, ttl: ttlOf(block.controls.at(-1)!.value) as Ttl }] : [],
  );
  if (breakpoints.length === 0) return NO_CACHE_USAGE;

  const tokensAt: number[] = [];
  const keys: string[] = [];
  const hasher = prefixHasher(scope);
  let chars = 0;
  let media = 0;
  for (const block of blocks) {
    chars += block.chars;
    media += block.media;
    hasher.update(`${block.identity()}\u0000`);
    tokensAt.push(promptTokens(chars, media));
    keys.push(hasher.digest());
  }

  let readAt = -1;
  for (const { at } of [...breakpoints].reverse()) {
    for (let i = at; i >= Math.max(0, at - LOOKBACK_BLOCKS + 1) && i > readAt; i--) {
      if (store.hit(keys[i]!)) {
        readAt = i;
        break;
      }
    }
  }
  const read = readAt < 0 ? 0 : tokensAt[readAt]!;
  const usage: CacheUsage = { ...NO_CACHE_USAGE, readTokens: read };
  let from = read;
  for (const { at, ttl } of breakpoints) {
    if (at <= readAt || tokensAt[at]! < ANTHROPIC_MIN_CACHE_TOKENS) continue;
    const written = tokensAt[at]! - from;
    if (ttl === "1h") usage.write1hTokens += written;
    else usage.write5mTokens += written;
    from = tokensAt[at]!;
    store.put(keys[at]!, TTL_MS[ttl]);
  }
  return usage;
}
