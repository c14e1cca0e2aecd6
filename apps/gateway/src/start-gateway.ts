import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname } from "node:path";
import { getRequestListener } from "@hono/node-server";
import { keyRedactor } from "@interlingua/errors";
import { seedStore } from "./auth/seed-store.ts";
import { TokenStore } from "./auth/token-store.ts";
import { Accounting, type AccountingOptions } from "./billing/accounting.ts";
import { LeaseAwareStore } from "./billing/lease-aware-store.ts";
import { PriceBook } from "./billing/price-book.ts";
import { spillPlace } from "./billing/spill-journal.ts";
import type { GatewayConfig } from "./config/config-schema.ts";
import { devToken, loadOrCreateDevApiKey } from "./config/dev-api-key.ts";
import { simulatedChannels } from "./config/simulated-channels.ts";
import { type EmbeddedSimulator, startEmbeddedSimulator } from "./embedded-simulator.ts";
import { startFileSweeper } from "./files/file-sweeper.ts";
import { openFileStore } from "./files/open-file-store.ts";
import { trackOpenRequests } from "./health/open-requests.ts";
import { checkReadiness } from "./health/readiness.ts";
import { BackgroundResponses, stopRunning } from "./http/background-response.ts";
import { answerClientErrors } from "./http/client-error.ts";
import { createApp } from "./http/create-app.ts";
import { BodyGuards, frontDoor } from "./http/front-door.ts";
import { createLogger, type Logger, redactingLogger } from "./log/logger.ts";
import { tracingMismatch } from "./log/tracing.ts";
import { GatewayMetrics } from "./observe/metrics.ts";
import { observed } from "./observe/observing-store.ts";
import { queueDepth } from "./observe/queue-depth.ts";
import { openSharedState } from "./open-shared-state.ts";
import { type OpenWorkQueueOptions, openWorkQueue } from "./queue/open-work-queue.ts";
import type { WorkQueue } from "./queue/work-queue.ts";
import { startResponseSweeper } from "./responses/response-sweeper.ts";
import { toChannel } from "./routing/channel.ts";
import { CircuitBreaker, type CircuitBreakerOptions, ModelRouter } from "./routing/model-router.ts";
import type { GatewayServices } from "./services/gateway-services.ts";
import { openStore } from "./storage/open-store.ts";
import { redactingStore } from "./storage/redacting-store.ts";
import type { DrainLimits } from "./stream/relay.ts";
import { ResponseEvents } from "./stream-log/response-event-log.ts";
import { TaskRunner, type TaskRunnerOptions } from "./tasks/task-runner.ts";
import {
  createUpstreamAgent,
  DEFAULT_UPSTREAM_TIMEOUTS,
  type UpstreamTimeouts,
} from "./upstream/upstream-agent.ts";
import { WebhookDispatcher, type WebhookDispatcherOptions } from "./webhooks/webhook-dispatcher.ts";

/** Knobs that are not part of the config file: tests and benchmarks tune them. */
export interface GatewayOptions {
  logger?: Logger;
  /** Random source of the weighted channel choice. */
  random?: () => number;
  breaker?: Omit<CircuitBreakerOptions, "now">;
  timeouts?: Partial<UpstreamTimeouts>;
  drain?: DrainLimits;
  keepAliveMs?: number;
  /** Where a generated dev key is kept; defaults to the parent of files_dir (./data). */
  dataDir?: string;
  /** false turns holds, settlements and usage logs off (the load benchmark's baseline). */
  accounting?: boolean;
  /** Quota lease timing and clock (tests shorten or drive them). */
  leases?: AccountingOptions;
  /**
   * The background work queue: options for the one `redis_url` chooses (a ManualClock for the
   * in-process one, a key prefix for BullMQ), or a queue to use as it is. Closed on close().
   */
  queue?: WorkQueue | OpenWorkQueueOptions;
  /** How long a token read from the database is trusted (ms). */
  tokenTtlMs?: number;
  /** Clock of rate limits and token expiry. */
  now?: () => number;
  /** Between sweeps of expired files (ms). */
  fileSweepIntervalMs?: number;
  /** Webhook delivery: receiver timeout, host resolution, sweep interval (tests shorten them). */
  webhooks?: WebhookDispatcherOptions;
  /** Task polling: intervals, backoff, maximum age, result lifetime (tests shorten them). */
  tasks?: Partial<TaskRunnerOptions>;
}

export interface RunningGateway {
  readonly url: string;
  readonly port: number;
  /** Set when the config had no tokens and a dev key was generated (print it). */
  readonly devApiKey: string | undefined;
  /** Set when the config had no channels and the built-in simulator serves them. */
  readonly simulatorUrl: string | undefined;
  readonly config: GatewayConfig;
  readonly services: GatewayServices;
  /**
   * Stops the gateway. With `unreadyMs` (SIGTERM), first serves on that long with readiness
   * 503 `draining`; with `drainMs`, stops accepting, lets open requests and streams finish for at
   * most that long, then closes the rest; usage is flushed either way.
   */
  close(options?: { readonly drainMs?: number; readonly unreadyMs?: number }): Promise<void>;
}

/**
 * Per (channel, model): 3 failures from at least 2 callers open it; a trial goes through after
 * 5 s, then 10, 20, 30 s while trials keep failing.
 */
export const DEFAULT_BREAKER = {
  failureThreshold: 3,
  cooldownMs: 5_000,
  maxCooldownMs: 30_000,
  minSources: 2,
};
/** How long an idle client connection is kept open (load balancers idle out at 60 s). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/**
 * After its client left, a stream is read on only briefly (its usage may be a frame away), then
 * cancelled: the upstream must stop within a second, freeing its connection.
 */
export const DEFAULT_DRAIN: DrainLimits = { maxMs: 500, maxBytes: 1024 * 1024 };
export const DEFAULT_KEEP_ALIVE_MS = 15_000;
/** How long a start waits for Redis before serving without it (failing open) meanwhile. */
const REDIS_STARTUP_WAIT_MS = 2_000;
export const DEFAULT_TOKEN_TTL_MS = 5_000;

/** Fills in what an empty config leaves out: a simulated upstream and a dev key. */
async function withEmbeddedDefaults(config: GatewayConfig, options: GatewayOptions) {
  let simulator: EmbeddedSimulator | undefined;
  let effective = config;
  if (config.channels.length === 0) {
    simulator = await startEmbeddedSimulator();
    effective = { ...effective, channels: simulatedChannels(simulator.url) };
  }
  let devApiKey: string | undefined;
  if (config.tokens.length === 0) {
    devApiKey = await loadOrCreateDevApiKey(options.dataDir ?? dirname(config.files_dir));
    const { user, token } = devToken(devApiKey);
    effective = { ...effective, users: [...effective.users, user], tokens: [token] };
  }
  return { config: effective, simulator, devApiKey };
}

export async function startGateway(
  config: GatewayConfig,
  options: GatewayOptions = {},
): Promise<RunningGateway> {
  const embedded = await withEmbeddedDefaults(config, options);
  const effective = embedded.config;
  // Built once from the channels' keys: redacted from logs, stored rows, and every response.
  const redactor = keyRedactor(effective.channels.map((channel) => channel.api_key));
  const log = redactingLogger(options.logger ?? createLogger(), redactor.redact);
  // Read when Prometheus scrapes (queue and accounting exist by then).
  const metrics = effective.metrics.enabled
    ? new GatewayMetrics({
        queueDepth: () => queueDepth(queue),
        openHolds: () => accounting?.openHolds,
        openTasks: async () => store.tasks.countOpen?.(),
        redisUp: () => (shared.redis === undefined ? undefined : shared.redis.outage.down ? 0 : 1),
        upstreamSlots: () => ({ waiting: router.slots.waiting(), inUse: router.slots.inUse() }),
      })
    : undefined;
  const store = observed(
    redactingStore(await openStore(effective.database_url), redactor.redact),
    effective,
    metrics,
  );
  const { rateLimits, deleted } = await seedStore(store, effective);
  // A config token deleted through the API stays deleted (re-creating it would re-grant what it
  // spent, and bring back a key someone chose to revoke): say so, since the file still lists it.
  if (deleted.length > 0) {
    log.warn(
      { tokens: deleted },
      "config tokens deleted through the API stay deleted (give them a new key to restore them)",
    );
  }
  // Reclaims the leases of instances that died (heartbeat too old) before taking any itself.
  const accounting =
    options.accounting === false
      ? undefined
      : new Accounting(store, effective.billing, log, {
          // Settlements shutdown could not write are journaled here for the next start.
          spill: spillPlace(effective.database_url, options.dataDir ?? dirname(config.files_dir)),
          ...leaseTiming(effective.billing.leases),
          ...options.leases,
        });
  await accounting?.start();
  // Balances leave out this instance's free lease: it is neither spent nor held by a call.
  const view = accounting === undefined ? store : new LeaseAwareStore(store, accounting);
  const prices = new PriceBook(effective.billing, effective.pricing);
  const agent = createUpstreamAgent({ ...DEFAULT_UPSTREAM_TIMEOUTS, ...options.timeouts });
  const router = new ModelRouter(
    effective.channels.map(toChannel),
    new CircuitBreaker(options.breaker ?? DEFAULT_BREAKER),
    options.random,
  );
  const mismatch = effective.tracing.enabled ? tracingMismatch() : undefined;
  if (mismatch !== undefined) log.warn(`tracing is on but no span is exported: ${mismatch}`);
  const unpriced = router.modelIds().filter((id) => !prices.has(id));
  if (unpriced.length > 0) {
    log.warn(
      { models: unpriced },
      "models without a price (add them under pricing): calls are free",
    );
  }
  const now = options.now ?? Date.now;
  // Rate-limit windows and the cache registry: on Redis when redis_url is set, else in process.
  const shared = openSharedState(effective, log, options.now, (operation) =>
    metrics?.redisFailed(operation),
  );
  // A Redis down at startup is an outage like any other (the gateway serves, failing open),
  // not a reason to wait: its commands are bounded from here on.
  await shared.redis?.ready(REDIS_STARTUP_WAIT_MS).catch((error: unknown) => {
    shared.redis?.bound();
    shared.redis?.outage.failed("connect", error);
  });
  let draining = false;
  const fileStore = openFileStore(effective);
  // Known once the server listens (port 0 picks one); only read when public_url is unset.
  let listenUrl = "";
  const queueOption = options.queue;
  const queue =
    queueOption !== undefined && "schedule" in queueOption
      ? queueOption
      : openWorkQueue(effective, {
          prefix: effective.redis_prefix,
          ...queueOption,
          log,
          outage: shared.redis?.outage,
        });
  const services: GatewayServices = {
    config: effective,
    store: view,
    // Authentication reads no balance: it goes to the store itself, not the view.
    tokens: new TokenStore(store, {
      ...(shared.bus === undefined
        ? {}
        : { broadcast: (keyHash: string) => shared.bus?.publish({ kind: "token", keyHash }) }),
      ttlMs: options.tokenTtlMs ?? DEFAULT_TOKEN_TTL_MS,
      rateLimits,
      defaultRateLimit: effective.limits.rate_limit,
      now,
    }),
    limiter: shared.limiter,
    prices,
    caches: shared.caches,
    now,
    accounting,
    router,
    agent,
    log,
    redactor,
    drain: options.drain ?? DEFAULT_DRAIN,
    keepAliveMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
    startedAt: Math.floor(Date.now() / 1000),
    fileStore,
    publicUrl: () => effective.public_url ?? listenUrl,
    queue,
    responseEvents: new ResponseEvents(log, shared.redis),
    readiness: () => checkReadiness({ store, redis: shared.redis, draining: () => draining }),
    metrics,
  };
  services.responseEvents.bind(
    view.responses,
    {
      maxEvents: effective.responses.stream_events_max,
      maxBytes: effective.responses.stream_events_max_bytes,
    },
    stopRunning,
  );
  // One count of the bodies in flight for every route (the front door and the app).
  const guards = new BodyGuards(services);
  const app = createApp(services, guards);
  const bodyTimeout = effective.limits.body_timeout_ms;
  // One entrance: the front door answers the generation routes, the Hono app the rest.
  const server = createServer(
    {
      // A request not received in full in time is answered 408 (in the envelope, see
      // answerClientErrors); Node checks every `connectionsCheckingInterval` ms.
      requestTimeout: bodyTimeout,
      headersTimeout: Math.min(60_000, bodyTimeout),
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(bodyTimeout / 4))),
    },
    frontDoor(services, guards, getRequestListener(app.fetch)),
  );
  // Longer than any client pool's idle time (undici keeps a socket until the server's hint less
  // 2 s): with Node's 5 s, an event-loop pause let the close timer beat a request already sent
  // on the idle socket, and the client saw ECONNRESET. Shutdown closes idle sockets itself.
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  answerClientErrors(server);
  const openRequests = trackOpenRequests(server);
  const { host, port } = effective.listen;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${bound}`;
  listenUrl = url;
  // Tokens changed through /api/* on another instance are forgotten here at once. Bounded: a
  // Redis down at startup must not hold the start (ioredis subscribes once it is back).
  if (shared.bus !== undefined) {
    const subscribed = shared.bus
      .subscribe((message) => services.tokens.forget(message.keyHash))
      .then(() => true);
    subscribed.catch(() => undefined);
    const timeout = new Promise<boolean>((resolve) => {
      setTimeout(() => resolve(false), REDIS_STARTUP_WAIT_MS).unref();
    });
    const done = await Promise.race([subscribed, timeout]).catch(() => false);
    if (!done) {
      log.warn("Redis pub/sub unavailable: token changes elsewhere show after the token ttl");
    }
  }
  // Background response streams followed here hear of events recorded elsewhere at once (they
  // poll meanwhile, and without Redis).
  services.responseEvents.subscribe().catch((error: unknown) => {
    log.warn({ err: error }, "Redis pub/sub unavailable: followed response streams poll");
  });
  // Pushes owed from before a restart are scheduled again here.
  const webhooks = new WebhookDispatcher(services, {
    sweepIntervalMs: effective.webhooks.sweep_interval_ms,
    ...options.webhooks,
  });
  await webhooks.start();
  // Unfinished tasks from before a restart are scheduled again here.
  const tasks = new TaskRunner(services, {
    stepLeaseMs: effective.tasks.step_lease_ms,
    sweepIntervalMs: effective.tasks.sweep_interval_ms,
    ...options.tasks,
  });
  await tasks.start();
  // Background responses queued or cut short before a restart run again.
  const backgroundResponses = new BackgroundResponses(services);
  await backgroundResponses.start();
  const fileSweeper = startFileSweeper({
    records: store.files,
    store: fileStore,
    now,
    log,
    ...(options.fileSweepIntervalMs === undefined
      ? {}
      : { intervalMs: options.fileSweepIntervalMs }),
  });
  const responseSweeper = startResponseSweeper({ store: store.responses, now, log });
  log.info(
    { url, channels: effective.channels.map((c) => c.name), database: store.driver },
    "gateway listening",
  );
  return {
    url,
    port: bound,
    devApiKey: embedded.devApiKey,
    simulatorUrl: embedded.simulator?.url,
    config: effective,
    services,
    async close(closeOptions = {}) {
      draining = true;
      // Still accepting, readiness 503 `draining`: a load balancer polling it moves away first.
      if ((closeOptions.unreadyMs ?? 0) > 0) {
        log.info({ ms: closeOptions.unreadyMs }, "shutting down: not ready, still serving");
        await new Promise((resolve) => setTimeout(resolve, closeOptions.unreadyMs));
      }
      const drained = await openRequests.drain(closeOptions.drainMs ?? 0);
      if (!drained) log.warn({ open: openRequests.count() }, "shutdown cut open requests short");
      // Running jobs finish (polls, pushes, what they settle) before their agent, accounting
      // and the store close.
      await tasks.close();
      await backgroundResponses.close();
      await webhooks.close();
      await queue.close();
      await agent.close();
      await services.accounting?.close();
      await fileSweeper.stop();
      await responseSweeper.stop();
      await fileStore.close();
      await store.close();
      await shared.close();
      await embedded.simulator?.close();
    },
  };
}

/** `billing.leases` of the config as Accounting options (only the keys it sets). */
function leaseTiming(leases: GatewayConfig["billing"]["leases"]): AccountingOptions {
  return {
    ...(leases?.heartbeat_ms === undefined ? {} : { heartbeatMs: leases.heartbeat_ms }),
    ...(leases?.stale_ms === undefined ? {} : { staleMs: leases.stale_ms }),
    ...(leases?.reclaim_every_ms === undefined ? {} : { reclaimEveryMs: leases.reclaim_every_ms }),
  };
}
