import type { RedisLink } from "../redis/redis-link.ts";
import type { Store } from "../storage/store.ts";
import { bounded } from "./bounded.ts";

/** Each part's state: "ok", or why it is not ready. */
export interface ReadinessReport {
  readonly ready: boolean;
  readonly checks: Readonly<Record<string, string>>;
}

const CHECK_TIMEOUT_MS = 2_000;

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export interface ReadinessParts {
  readonly store: Store;
  readonly redis: RedisLink | undefined;
  /** True once SIGTERM started the drain: the load balancer must stop sending here. */
  readonly draining: () => boolean;
}

/**
 * `GET /readyz`: the database answers and has every migration of this build, Redis answers
 * (when configured), and the process is not shutting down. Parts are checked in parallel, each
 * bounded, so a hung dependency yields a 503 naming it rather than a hung probe.
 */
export async function checkReadiness(parts: ReadinessParts): Promise<ReadinessReport> {
  const checks: Record<string, string> = {};
  const database = (async () => {
    try {
      const pending = await bounded(
        parts.store.pendingMigrations?.() ?? Promise.resolve<number[]>([]),
        CHECK_TIMEOUT_MS,
      );
      checks["database"] = "ok";
      checks["migrations"] =
        pending.length === 0 ? "ok" : `pending: ${pending.join(", ")} (run interlingua migrate)`;
    } catch (error) {
      checks["database"] = `unreachable: ${reason(error)}`;
      checks["migrations"] = "unknown (database unreachable)";
    }
  })();
  const redis = (async () => {
    if (parts.redis === undefined) return;
    try {
      await parts.redis.ping(CHECK_TIMEOUT_MS);
      checks["redis"] = "ok";
    } catch (error) {
      checks["redis"] = `unreachable: ${reason(error)}`;
    }
  })();
  await Promise.all([database, redis]);
  checks["shutdown"] = parts.draining() ? "draining" : "ok";
  return { ready: Object.values(checks).every((state) => state === "ok"), checks };
}
