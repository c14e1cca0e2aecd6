import { Redis } from "ioredis";

/**
 * The gateway's connections to `redis_url`: one for commands (limits, caches, publishing) and
 * one subscriber (a subscribed ioredis connection can run nothing else). Every key and channel
 * starts with `prefix`, so fleets (and test runs) sharing one Redis never see each other.
 */
export class RedisLink {
  readonly prefix: string;
  readonly commands: Redis;
  #subscriber: Redis | undefined;
  readonly #url: string;

  constructor(url: string, prefix: string) {
    this.#url = url;
    this.prefix = prefix;
    this.commands = connect(url);
  }

  /** `<prefix>:<parts joined by :>`. */
  key(...parts: string[]): string {
    return [this.prefix, ...parts].join(":");
  }

  /** The subscriber connection, opened on first use. */
  subscriber(): Redis {
    this.#subscriber ??= connect(this.#url);
    return this.#subscriber;
  }

  /** Round trip to Redis, bounded: readiness must answer even when Redis hangs. */
  async ping(timeoutMs = 1_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([this.commands.ping(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await Promise.all([quit(this.commands), this.#subscriber && quit(this.#subscriber)]);
  }
}

function connect(url: string): Redis {
  // A command fails after one retry instead of queueing forever: a request waiting on a dead
  // Redis is answered (limits fail open, see RedisRateLimiter) rather than hanging.
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableAutoPipelining: true });
  // ioredis reconnects by itself; without a listener an error event would crash the process.
  redis.on("error", () => {});
  return redis;
}

async function quit(redis: Redis): Promise<void> {
  await redis.quit().catch(() => redis.disconnect());
}
