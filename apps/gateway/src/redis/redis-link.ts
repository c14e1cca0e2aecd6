import { Redis, type RedisOptions } from "ioredis";
import { RedisOutage } from "./redis-outage.ts";

/**
 * Every command's time budget (ms): a Redis that hangs costs a request this much at most, and a
 * Redis that is down costs nothing (no offline queue: a command fails at once while the
 * connection is not ready).
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
const CONNECT_TIMEOUT_MS = 2_000;

/** Options of a command connection: bounded, never queued, failing fast (docs/scale-out.md). */
export const BOUNDED_REDIS: RedisOptions = {
  enableOfflineQueue: false,
  commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  connectTimeout: CONNECT_TIMEOUT_MS,
  maxRetriesPerRequest: 0,
  enableAutoPipelining: true,
  // Reconnects back off to a second at most, so a restarted Redis is used again within one.
  retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 5), 1_000),
};

/**
 * The gateway's connections to `redis_url`: one for commands (limits, caches, publishing) and
 * one subscriber (a subscribed ioredis connection can run nothing else). Every key and channel
 * starts with `prefix`, so fleets (and test runs) sharing one Redis never see each other.
 */
export class RedisLink {
  readonly prefix: string;
  readonly commands: Redis;
  /** Outage state: callers report failures here (one warning per outage, and a metric). */
  readonly outage: RedisOutage;
  #subscriber: Redis | undefined;
  readonly #url: string;

  constructor(url: string, prefix: string, outage: RedisOutage = new RedisOutage()) {
    this.#url = url;
    this.prefix = prefix;
    this.outage = outage;
    // Until the first connection, commands wait for it (a starting gateway or test does not
    // fail open on its first calls); from then on they are bounded and never queued.
    this.commands = connect(url, {
      ...BOUNDED_REDIS,
      enableOfflineQueue: true,
      commandTimeout: undefined,
    });
    this.commands.once("ready", () => this.bound());
    this.commands.on("ready", () => outage.ok());
  }

  /** From now on every command is bounded and fails at once while disconnected. */
  bound(): void {
    this.commands.options.enableOfflineQueue = false;
    this.commands.options.commandTimeout = REDIS_COMMAND_TIMEOUT_MS;
  }

  /** `<prefix>:<parts joined by :>`. */
  key(...parts: string[]): string {
    return [this.prefix, ...parts].join(":");
  }

  /**
   * The subscriber connection, opened on first use. Its SUBSCRIBE may wait for a connection
   * (ioredis subscribes again by itself after every reconnect), so it keeps an offline queue.
   */
  subscriber(): Redis {
    this.#subscriber ??= connect(this.#url, {
      connectTimeout: CONNECT_TIMEOUT_MS,
      retryStrategy: BOUNDED_REDIS.retryStrategy,
    });
    return this.#subscriber;
  }

  /** Resolves once the command connection is ready, or rejects after `timeoutMs`. */
  async ready(timeoutMs: number): Promise<void> {
    if (this.commands.status === "ready") return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.commands.off("ready", onReady);
        reject(new Error(`Redis not ready in ${timeoutMs} ms (${this.commands.status})`));
      }, timeoutMs);
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      this.commands.once("ready", onReady);
    });
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

function connect(url: string, options: RedisOptions): Redis {
  const redis = new Redis(url, options);
  // ioredis reconnects by itself; without a listener an error event would crash the process.
  // Failures are reported by the calls that meet them (RedisOutage), not once per reconnect.
  redis.on("error", () => {});
  return redis;
}

async function quit(redis: Redis): Promise<void> {
  if (redis.status !== "ready") {
    redis.disconnect();
    return;
  }
  await redis.quit().catch(() => redis.disconnect());
}
