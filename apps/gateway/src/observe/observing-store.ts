import { SpanKind } from "@opentelemetry/api";
import { inSpan } from "../log/tracing.ts";
import type { Store } from "../storage/store.ts";
import type { TaskStore } from "../storage/task-store.ts";
import type { GatewayMetrics } from "./metrics.ts";

/** `target` with the methods named in `override` replaced, every other method bound to it. */
function overriding<T extends object>(target: T, override: Partial<T>): T {
  return new Proxy(target, {
    get(object, name) {
      if (Object.hasOwn(override, name)) return override[name as keyof T];
      const value: unknown = Reflect.get(object, name, object);
      return typeof value === "function" ? value.bind(object) : value;
    },
  });
}

/**
 * The store as billing writes through it: every usage row that reaches the database (charge
 * batches and task ends) is counted once written (calls, tokens, credits, settlement lag), and
 * each charge batch write is a `billing.write` span. Nothing on the request path: rows are
 * written in batches after their calls ended.
 */
export function observingStore(
  store: Store,
  metrics: GatewayMetrics | undefined,
  tracing = false,
): Store {
  const tasks = overriding<TaskStore>(store.tasks, {
    finish: async (id, expected, end, delivery) => {
      const done = await store.tasks.finish(id, expected, end, delivery);
      if (done) metrics?.usageWritten([end.log], Date.now());
      return done;
    },
  });
  return overriding<Store>(store, {
    writeCharges: (batch, now) =>
      inSpan(
        "billing.write",
        { "interlingua.rows": batch.logs.length },
        async () => {
          const outcome = await store.writeCharges(batch, now);
          if (!outcome.alreadyApplied) {
            metrics?.batchWritten();
            metrics?.usageWritten(batch.logs, Date.now());
          }
          return outcome;
        },
        SpanKind.INTERNAL,
        tracing,
      ),
    tasks,
  });
}

/** The store observed when metrics or tracing are on; as it is otherwise (no proxy at all). */
export const observed = (
  store: Store,
  config: { tracing: { enabled: boolean } },
  metrics: GatewayMetrics | undefined,
): Store =>
  metrics === undefined && !config.tracing.enabled
    ? store
    : observingStore(store, metrics, config.tracing.enabled);
