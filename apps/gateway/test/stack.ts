import { startProviderSim } from "@interlingua/provider-sim";
import type { ConfigInput } from "../src/config/config-schema.ts";
import { validateConfig } from "../src/config/load-config.ts";
import { createLogger } from "../src/log/logger.ts";
import { type GatewayOptions, type RunningGateway, startGateway } from "../src/start-gateway.ts";
import type { TokenRow } from "../src/storage/store.ts";
import { dropSchema, freshSchema } from "./storage/drivers.ts";
import type { Json } from "./wire.ts";

export const KEY = "sk-test-alice";
export const LIMITED_KEY = "sk-test-limited";
/**
 * The only key the simulator accepts: a request reaching it proves the channel key was sent.
 * Random-looking, as a real key is: the gateway redacts any 8-character slice of a channel key
 * from what it sends and logs, so a key spelling a word ("upstream") would redact that word.
 */
export const UPSTREAM_KEY = "uk-7Hq2-Lm9x-Pz4w";

export type Sim = Awaited<ReturnType<typeof startProviderSim>>;

export interface Stack {
  gateway: RunningGateway;
  sim: Sim;
  /** Every log line the gateway wrote so far, parsed. */
  logs: () => Record<string, unknown>[];
  /** The raw log text, to prove what it does not contain. */
  logText: () => string;
  close(): Promise<void>;
}

/** One channel per protocol at the simulator, serving one model family each (as the catalogue says). */
export const simChannels = (url: string, apiKey = UPSTREAM_KEY) => [
  {
    name: "oa",
    protocol: "openai" as const,
    base_url: url,
    api_key: apiKey,
    models: ["txtA-5", "txtD-v3.2", "txtD-r1-250528"],
  },
  {
    name: "an",
    protocol: "anthropic" as const,
    base_url: url,
    api_key: apiKey,
    models: { "txtB-sonnet-4-6": "txtB-sonnet-4-6", "txtB-opus-4-8": "claude-upstream-name" },
  },
  {
    name: "ge",
    protocol: "gemini" as const,
    base_url: url,
    api_key: apiKey,
    models: ["txtC-2.5-pro", "txtC-3.6-flash"],
  },
];

/** `extraChannels` for one OpenAI Responses API channel at the simulator, serving `models`. */
export const responsesChannel =
  (...models: string[]) =>
  (url: string) => [
    {
      name: "or",
      protocol: "openai-responses" as const,
      base_url: url,
      api_key: UPSTREAM_KEY,
      models,
    },
  ];

/**
 * The gateway's database for one stack: SQLite in memory by default; for a `postgres://` URL a
 * fresh schema of that database (`?schema=`), dropped when the stack closes, so test runs and
 * stacks never share tables.
 */
async function stackDatabase(
  url: string | undefined,
): Promise<{ url: string; drop(): Promise<void> }> {
  if (url === undefined || !/^postgres(ql)?:\/\//.test(url)) {
    return { url: url ?? "sqlite::memory:", drop: async () => {} };
  }
  const schema = freshSchema("stack");
  const withSchema = new URL(url);
  withSchema.searchParams.set("schema", schema);
  return { url: withSchema.toString(), drop: () => dropSchema(schema, url) };
}

/** Starts the simulator and a gateway in front of it, both on random loopback ports. */
export async function startStack(
  overrides: Partial<ConfigInput> & {
    simFault?: string;
    /** The simulator's clock (cache expiry); pass the gateway's `now` too to move both. */
    simNow?: () => number;
    /** Channels added after the simulator's own, given its URL. */
    extraChannels?: (simUrl: string) => NonNullable<ConfigInput["channels"]>;
    /** The gateway's database: SQLite in memory by default, or a Postgres URL (fresh schema). */
    databaseUrl?: string | undefined;
  } = {},
  options: GatewayOptions = {},
): Promise<Stack> {
  const { simFault, simNow, extraChannels, databaseUrl, ...configOverrides } = overrides;
  const database = await stackDatabase(databaseUrl);
  const sim = await startProviderSim({
    port: 0,
    keys: [UPSTREAM_KEY],
    ...(simFault === undefined ? {} : { fault: simFault }),
    ...(simNow === undefined ? {} : { now: simNow }),
  });
  const lines: string[] = [];
  const config = validateConfig({
    listen: { host: "127.0.0.1", port: 0 },
    database_url: database.url,
    // Enough for calls without max tokens, which hold the model's whole maximum output.
    users: [{ id: "alice", quota: 1_000_000_000_000 }],
    tokens: [
      { key: KEY, user: "alice", unlimited: true },
      { key: LIMITED_KEY, user: "alice", quota: 10, models: ["txtA-5"] },
    ],
    channels: [...simChannels(sim.url), ...(extraChannels?.(sim.url) ?? [])],
    ...configOverrides,
  });
  if (!config.ok) throw new Error(config.errors.join("\n"));
  const gateway = await startGateway(config.config, {
    logger: createLogger({ level: "info" }, { write: (line: string) => void lines.push(line) }),
    timeouts: { headersMs: 2000, bodyMs: 2000, connectMs: 1000 },
    drain: { maxMs: 2000, maxBytes: 1_000_000 },
    ...options,
  });
  return {
    gateway,
    sim,
    logs: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    logText: () => lines.join(""),
    async close() {
      await gateway.close();
      await sim.close();
      await database.drop();
    },
  };
}

export const auth = (key = KEY) => ({ authorization: `Bearer ${key}` });

export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = auth(),
): Promise<{ status: number; headers: Headers; json: Json; text: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    // Bounds a hang, not a speed: 200 calls at once on a loaded two-core machine took over 10 s.
    signal: AbortSignal.timeout(45_000),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

/** Waits (bounded) until `check` holds; for log lines written after a reply was sent. */
export async function eventually(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Waits (bounded) until `ok` holds of what `read` gives, and returns that; for what the gateway
 * writes after a reply was sent (charges and usage rows, written in batches).
 */
export async function eventuallyAsync<T>(
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`condition not met: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The token row (as the gateway's handlers see it) of the token with this key. */
export async function tokenRow(stack: Stack, key: string): Promise<TokenRow> {
  const services = stack.gateway.services;
  const found = await services.tokens.lookup(key);
  if (!found.ok) throw new Error(`no token ${key}`);
  const row = await services.store.getToken(found.token.id);
  if (row === undefined) throw new Error(`no row for ${key}`);
  return row;
}
