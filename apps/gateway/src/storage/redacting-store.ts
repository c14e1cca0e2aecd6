import type { ChargeBatch, Store, UsageLogInput } from "./store.ts";
import type { NewDelivery, TaskEnd, TaskStore } from "./task-store.ts";

/** An object whose methods are bound to it, `override` answering for the names it has. */
function withOverrides<T extends object>(target: T, override: Partial<T>): T {
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(object, name) {
      if (Object.hasOwn(override, name)) return override[name as keyof T];
      const value: unknown = Reflect.get(object, name, object);
      if (typeof value !== "function") return value;
      let method = bound.get(name);
      if (method === undefined) {
        method = (value as (...args: unknown[]) => unknown).bind(object);
        bound.set(name, method);
      }
      return method;
    },
  });
}

/**
 * Redacts upstream keys from what is recorded of failed calls (their errors are often the
 * upstream's own text). Methods are bound to `store` so its private state is reached.
 */
export function redactingStore(store: Store, redact: (text: string) => string): Store {
  const cleanLog = (log: UsageLogInput): UsageLogInput =>
    log.error === undefined ? log : { ...log, error: redact(log.error) };
  const cleanBatch = (batch: ChargeBatch): ChargeBatch => ({
    ...batch,
    logs: batch.logs.map(cleanLog),
    ...(batch.deadLetters === undefined
      ? {}
      : {
          deadLetters: batch.deadLetters.map((dead) => ({
            ...dead,
            reason: redact(dead.reason),
            log: cleanLog(dead.log),
          })),
        }),
  });
  const cleanEnd = (end: TaskEnd): TaskEnd =>
    end.status === "completed"
      ? { ...end, log: cleanLog(end.log) }
      : {
          ...end,
          log: cleanLog(end.log),
          error:
            end.error === undefined
              ? undefined
              : { ...end.error, message: redact(end.error.message) },
        };
  const cleanDelivery = (delivery: NewDelivery | undefined) =>
    delivery === undefined ? undefined : { ...delivery, body: redact(delivery.body) };
  // A task's end writes its error, its usage row and the webhook push owed, in one call.
  const tasks = withOverrides<TaskStore>(store.tasks, {
    finish: (id, expected, end, delivery) =>
      store.tasks.finish(id, expected, cleanEnd(end), cleanDelivery(delivery)),
  });
  return withOverrides<Store>(store, {
    writeCharges: (batch, now) => store.writeCharges(cleanBatch(batch), now),
    tasks,
  });
}
