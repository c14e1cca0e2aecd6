import { Agent } from "undici";
import type { ChannelConfig, GatewayConfig } from "../config/config-schema.ts";
import { bounded } from "../health/bounded.ts";
import { RedisLink } from "../redis/redis-link.ts";
import { toChannel } from "../routing/channel.ts";
import { openStore } from "../storage/open-store.ts";
import { requestChannel } from "../upstream/call-channel.ts";
import { PROTOCOLS } from "../upstream/protocols.ts";

// `interlingua doctor`: what a gateway needs before it serves, checked one by one without
// changing anything (no migration applied, no call that costs money): the database and its
// migrations, Redis, and each channel's address and key.

export interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

export interface DoctorOptions {
  /** Bound of each network check (ms). */
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5_000;

const reason = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
};

export async function checkDatabase(
  config: GatewayConfig,
  timeoutMs: number,
): Promise<CheckResult[]> {
  let store: Awaited<ReturnType<typeof openStore>> | undefined;
  const unreachable = (error: unknown): CheckResult[] => [
    { name: "database", ok: false, detail: `cannot connect: ${reason(error)}` },
    { name: "migrations", ok: false, detail: "unknown (database unreachable)" },
  ];
  try {
    store = await bounded(openStore(config.database_url, { migrate: false }), timeoutMs);
    const connected: CheckResult = {
      name: "database",
      ok: true,
      detail: `${store.driver} connected`,
    };
    // Reading the applied migrations is the first query: it proves the connection too.
    let pending: number[];
    try {
      pending = await bounded(store.pendingMigrations?.() ?? Promise.resolve([]), timeoutMs);
    } catch (error) {
      return unreachable(error);
    }
    return [
      connected,
      pending.length === 0
        ? { name: "migrations", ok: true, detail: "schema up to date" }
        : {
            // Normal before a first start: serve applies them (so does interlingua migrate).
            name: "migrations",
            ok: true,
            detail: `pending: ${pending.join(", ")} (applied by serve at start, or interlingua migrate)`,
          },
    ];
  } catch (error) {
    return unreachable(error);
  } finally {
    await store?.close().catch(() => {});
  }
}

export async function checkRedis(
  config: GatewayConfig,
  timeoutMs: number,
): Promise<CheckResult | undefined> {
  if (config.redis_url === undefined) return undefined;
  const link = new RedisLink(config.redis_url, "doctor");
  try {
    await link.ping(timeoutMs);
    return { name: "redis", ok: true, detail: "PING answered" };
  } catch (error) {
    return { name: "redis", ok: false, detail: `unreachable: ${reason(error)}` };
  } finally {
    // A Redis that does not answer would keep ioredis reconnecting: cut it off.
    await bounded(link.close(), 1_000).catch(() => link.commands.disconnect());
  }
}

/** `base_url` joined with a probe path (a proxy prefix in `base_url` is kept). */
const joined = (base: string, path: string) => base.replace(/\/+$/, "") + path;

/**
 * Why a probe got no answer, worded as when the probes went through `fetch` (operators' scripts
 * may match it): a network error as `fetch failed (<cause>)`, the timeout as its own message.
 */
const unanswered = (error: unknown, signal: AbortSignal): string =>
  signal.aborted ? reason(error) : `fetch failed (${reason(error)})`;

export async function checkChannel(config: ChannelConfig, timeoutMs: number): Promise<CheckResult> {
  const name = `channel ${config.name}`;
  const protocol = PROTOCOLS[config.protocol];
  // No services exist yet: the probes go out over a channel of the config entry's own, and a
  // dispatcher that lives as long as this check.
  const channel = toChannel(config);
  const agent = new Agent();
  let status = 0;
  let url = "";
  let ms = 0;
  const started = performance.now();
  try {
    for (const path of protocol.probes) {
      url = joined(config.base_url, path);
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        const response = await requestChannel(agent, channel, { method: "GET", path }, signal);
        status = response.statusCode;
        // Gemini answers a bad key with 400 API_KEY_INVALID, not 401.
        const text = status === 400 ? await response.body.text() : "";
        if (/API_KEY_INVALID|API key not valid/i.test(text)) status = 401;
        // Read off (not destroyed: that would raise an abort nobody listens for).
        if (!response.body.bodyUsed) await response.body.dump();
      } catch (error) {
        const detail = `unreachable: ${config.base_url}: ${unanswered(error, signal)}`;
        return { name, ok: false, detail };
      }
      if (status !== 404) break;
    }
    ms = Math.round(performance.now() - started);
  } finally {
    await agent.destroy().catch(() => {});
  }
  const where = `${config.protocol} ${config.base_url}`;
  if (status >= 200 && status < 300) {
    return { name, ok: true, detail: `${where}: key accepted (HTTP ${status}, ${ms} ms)` };
  }
  if (status === 401 || status === 403) {
    return { name, ok: false, detail: `${where}: key refused (HTTP ${status})` };
  }
  if (status === 429) {
    return {
      name,
      ok: true,
      detail: `${where}: reachable, rate limited (HTTP 429): key not verified`,
    };
  }
  return {
    name,
    ok: false,
    detail: `${where}: GET ${new URL(url).pathname} answered HTTP ${status}`,
  };
}

/** Every check, in order: database and migrations, Redis when configured, each channel. */
export async function runDoctor(
  config: GatewayConfig,
  options: DoctorOptions = {},
): Promise<CheckResult[]> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const [database, redis, channels] = await Promise.all([
    checkDatabase(config, timeoutMs),
    checkRedis(config, timeoutMs),
    Promise.all(config.channels.map((channel) => checkChannel(channel, timeoutMs))),
  ]);
  return [...database, ...(redis === undefined ? [] : [redis]), ...channels];
}

/** One line per check: `ok`/`FAIL`, the check, what was found. */
export const renderCheck = (check: CheckResult): string =>
  `${check.ok ? "ok  " : "FAIL"}  ${check.name.padEnd(16)} ${check.detail}`;

/** `interlingua doctor`: prints a line per check; 0 when every check passed, 1 otherwise. */
export async function doctorCommand(
  config: GatewayConfig,
  file: string | undefined,
  io: { out: (line: string) => void },
  options: DoctorOptions = {},
): Promise<number> {
  const channels = config.channels.length;
  io.out(
    renderCheck({
      name: "config",
      ok: true,
      detail: `${file ?? "embedded defaults"}: ${channels} channel${channels === 1 ? "" : "s"}, ${config.tokens.length} token${config.tokens.length === 1 ? "" : "s"}${channels === 0 ? " (serve starts the built-in simulator)" : ""}`,
    }),
  );
  const checks = await runDoctor(config, options);
  for (const check of checks) io.out(renderCheck(check));
  const failed = checks.filter((check) => !check.ok).length;
  io.out(failed === 0 ? "all checks passed" : `${failed} check${failed === 1 ? "" : "s"} failed`);
  return failed === 0 ? 0 : 1;
}
