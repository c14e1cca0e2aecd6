import type { RateLimitConfig } from "../config/config-schema.ts";
import type { RedisLink } from "../redis/redis-link.ts";
import type { Admission, RateLimiter } from "./rate-limiter.ts";

// The same window as SlidingWindow (60 one-second slots), kept in Redis as a hash per key and
// kind (field = second, value = count) so every instance counts into it. Checking and counting
// happen in one script: two instances can never both take the last request of a minute.
const WINDOW_LUA = `
local function wait(key, now, allowed)
  local current = math.floor(now / 1000)
  local oldest = current - 59
  local flat = redis.call('HGETALL', key)
  local counts = {}
  local total = 0
  for i = 1, #flat, 2 do
    local second = tonumber(flat[i])
    local count = tonumber(flat[i + 1])
    if second >= oldest then
      counts[second] = count
      total = total + count
    else
      redis.call('HDEL', key, flat[i])
    end
  end
  if total <= allowed then return 0 end
  for second = oldest, current do
    local count = counts[second]
    if count then total = total - count end
    if total <= allowed then return (second + 60) * 1000 - now end
  end
  return 60000
end
`;

/** KEYS: requests hash, tokens hash. ARGV: now ms ('' = Redis time), rpm, tpm (-1 = none). */
const ADMIT_LUA = `${WINDOW_LUA}
local now = tonumber(ARGV[1])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local rpm = tonumber(ARGV[2])
local tpm = tonumber(ARGV[3])
local longest = 0
if rpm >= 0 then longest = math.max(longest, wait(KEYS[1], now, rpm - 1)) end
if tpm >= 0 then longest = math.max(longest, wait(KEYS[2], now, tpm - 1)) end
if longest > 0 then return longest end
redis.call('HINCRBY', KEYS[1], tostring(math.floor(now / 1000)), 1)
redis.call('PEXPIRE', KEYS[1], 61000)
return 0
`;

/** KEYS: tokens hash. ARGV: now ms ('' = Redis time), tokens. */
const RECORD_LUA = `
local now = tonumber(ARGV[1])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
redis.call('HINCRBY', KEYS[1], tostring(math.floor(now / 1000)), tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], 61000)
return 0
`;

const ADMITTED: Admission = { ok: true };

type ScriptArg = string | number;
/** The scripts as commands (ioredis sends EVALSHA, and the script once per connection). */
interface WindowCommands {
  interlinguaAdmit(...args: ScriptArg[]): Promise<unknown>;
  interlinguaRecordTokens(...args: ScriptArg[]): Promise<unknown>;
}

export interface RedisRateLimiterOptions {
  /** A clock for tests; by default Redis's own, so instances with skewed clocks agree. */
  readonly now?: () => number;
  /** Redis failed: the request is admitted (limits fail open) and this is told (besides the link's outage). */
  readonly onError?: (error: unknown) => void;
}

/** The shared limiter (`redis_url` set): windows in Redis, global across instances. */
export class RedisRateLimiter implements RateLimiter {
  readonly #link: RedisLink;
  readonly #scripts: WindowCommands;
  readonly #now: (() => number) | undefined;
  readonly #onError: (error: unknown) => void;

  constructor(link: RedisLink, options: RedisRateLimiterOptions = {}) {
    this.#link = link;
    link.commands.defineCommand("interlinguaAdmit", { numberOfKeys: 2, lua: ADMIT_LUA });
    link.commands.defineCommand("interlinguaRecordTokens", { numberOfKeys: 1, lua: RECORD_LUA });
    this.#scripts = link.commands as unknown as WindowCommands;
    this.#now = options.now;
    this.#onError = options.onError ?? (() => {});
  }

  async admit(key: string, limit: RateLimitConfig): Promise<Admission> {
    if (limit.rpm === undefined && limit.tpm === undefined) return ADMITTED;
    // During an outage most calls skip Redis: failing open must cost nothing.
    if (this.#link.outage.skip()) {
      this.#link.outage.failed("rate-limit", undefined);
      return ADMITTED;
    }
    try {
      const wait = await this.#scripts.interlinguaAdmit(
        this.#windowKey(key, "r"),
        this.#windowKey(key, "t"),
        this.#clock(),
        limit.rpm ?? -1,
        limit.tpm ?? -1,
      );
      this.#link.outage.ok();
      const ms = Number(wait);
      return ms > 0 ? { ok: false, retryAfterMs: ms } : ADMITTED;
    } catch (error) {
      // Availability over strictness: a Redis outage must not refuse every request.
      this.#link.outage.failed("rate-limit", error);
      this.#onError(error);
      return ADMITTED;
    }
  }

  async recordTokens(key: string, tokens: number): Promise<void> {
    if (tokens <= 0 || this.#link.outage.skip()) return;
    try {
      await this.#scripts.interlinguaRecordTokens(
        this.#windowKey(key, "t"),
        this.#clock(),
        Math.round(tokens),
      );
    } catch (error) {
      this.#link.outage.failed("rate-limit", error);
      this.#onError(error);
    }
  }

  // One hash tag per limited key: both of its windows land on the same cluster slot.
  #windowKey(key: string, kind: "r" | "t"): string {
    return this.#link.key("rl", `{${key}}`, kind);
  }

  #clock(): string {
    return this.#now === undefined ? "" : String(Math.floor(this.#now()));
  }
}
