import type { KeyRedactor } from "@interlingua/errors";
import type { Agent } from "undici";
import type { TokenStore } from "../auth/token-store.ts";
import type { Accounting } from "../billing/accounting.ts";
import type { PriceBook } from "../billing/price-book.ts";
import type { CacheRegistry } from "../cache/cache-registry.ts";
import type { GatewayConfig } from "../config/config-schema.ts";
import type { FileStore } from "../files/file-store.ts";
import type { ReadinessReport } from "../health/readiness.ts";
import type { Logger } from "../log/logger.ts";
import type { GatewayMetrics } from "../observe/metrics.ts";
import type { WorkQueue } from "../queue/work-queue.ts";
import type { RateLimiter } from "../ratelimit/rate-limiter.ts";
import type { ModelRouter } from "../routing/model-router.ts";
import type { Store } from "../storage/store.ts";
import type { DrainLimits } from "../stream/relay.ts";
import type { ResponseEvents } from "../stream-log/response-event-log.ts";

/** Everything a request handler needs, built once at start. */
export interface GatewayServices {
  readonly config: GatewayConfig;
  readonly store: Store;
  readonly tokens: TokenStore;
  readonly limiter: RateLimiter;
  readonly prices: PriceBook;
  /** Upstream context caches the gateway created, by cache key. */
  readonly caches: CacheRegistry;
  /** The clock of cache expiry, token expiry and rate limits (tests move it). */
  readonly now: () => number;
  /** Holds, settlements and usage logs; undefined only when a benchmark turns it off. */
  readonly accounting: Accounting | undefined;
  readonly router: ModelRouter;
  readonly agent: Agent;
  readonly log: Logger;
  /**
   * The channels' upstream keys, to redact (whole, and any 8-character slice) from everything
   * that leaves the gateway or is stored: responses, streams, headers, logs, usage rows.
   */
  readonly redactor: KeyRedactor;
  /** How long and how much of an upstream stream is still read after its client went away. */
  readonly drain: DrainLimits;
  /** Idle time after which an SSE stream gets a keep-alive comment. */
  readonly keepAliveMs: number;
  /** Unix seconds; the `created` of `GET /v1/models`. */
  readonly startedAt: number;
  /**
   * Background work (task polls, webhook pushes): in process, or BullMQ when `redis_url` is set.
   * Whoever owns a kind of work calls `queue.process(kind, …)`; closed with the gateway.
   */
  readonly queue: WorkQueue;
  /** The stream events of background responses: recorded, followed, signalled across instances. */
  readonly responseEvents: ResponseEvents;
  /** Bytes of the files served at `/files/<key>` (uploads, generated results); see store.files. */
  readonly fileStore: FileStore;
  /**
   * Base of public file URLs: `public_url`, else the address the gateway listens on (known once
   * it listens). Use `publicFileUrl(services, key)` from files/public-file-url.ts.
   */
  readonly publicUrl: () => string;
  /** `GET /readyz`: database, migrations, Redis and shutdown state; unset reads as ready. */
  readonly readiness?: () => Promise<ReadinessReport>;
  /** Prometheus metrics (`metrics.enabled`); unset when they are off: hooks are `metrics?.…`. */
  readonly metrics?: GatewayMetrics | undefined;
}
