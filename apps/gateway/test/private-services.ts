import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { IN_CI } from "./storage/drivers.ts";

// A PostgreSQL and a Redis of the test's own, on free loopback ports: restarting them (what the
// fault tests do) disturbs no other test run sharing the machine's servers.

/** A free loopback port (bound and released: good enough for a server started right after). */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

function postgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = join(root, version, "bin");
    if (existsSync(join(bin, "pg_ctl")) && existsSync(join(bin, "initdb"))) return bin;
  }
  return undefined;
}

const asRoot = typeof process.getuid === "function" && process.getuid() === 0;

/** Runs a PostgreSQL tool, as the postgres user when we are root (initdb refuses root). */
function pgTool(bin: string, tool: string, args: string[]): void {
  const command = join(bin, tool);
  if (asRoot)
    execFileSync("runuser", ["-u", "postgres", "--", command, ...args], { stdio: "pipe" });
  else execFileSync(command, args, { stdio: "pipe" });
}

/** `pgTool`, without blocking the event loop (servers in this process keep serving). */
async function pgToolAsync(bin: string, tool: string, args: string[]): Promise<void> {
  const command = join(bin, tool);
  if (asRoot) await promisify(execFile)("runuser", ["-u", "postgres", "--", command, ...args]);
  else await promisify(execFile)(command, args);
}

export interface PrivatePostgres {
  readonly url: string;
  /** Fast shutdown: sessions are cut, as in a real restart. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it (fast shutdown) and starts it again. */
  restart(): Promise<void>;
  /** Stops it and removes its data directory. */
  destroy(): void;
}

/** Whether a private PostgreSQL can be started here; in CI it must (throws otherwise). */
export function privatePostgresAvailable(): boolean {
  if (postgresBin() !== undefined) return true;
  if (IN_CI)
    throw new Error("PostgreSQL binaries (initdb, pg_ctl) are missing: CI must run these tests");
  console.warn("\n!!! PostgreSQL binaries are missing: the database fault tests are SKIPPED.\n");
  return false;
}

/** initdb into a temporary directory and start a server on a free port (trust, user postgres). */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  if (bin === undefined) throw new Error("no PostgreSQL binaries");
  const dir = mkdtempSync(join(tmpdir(), "interlingua-pg-"));
  const data = join(dir, "data");
  if (asRoot) {
    chownSync(dir, uidOf("postgres"), gidOf("postgres"));
    chmodSync(dir, 0o700);
  }
  pgTool(bin, "initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=60`;
  const args = (action: string, ...extra: string[]) => [
    "-D",
    data,
    "-o",
    options,
    "-l",
    join(dir, "log"),
    "-w",
    ...extra,
    action,
  ];
  const ctl = (action: string, ...extra: string[]) =>
    pgToolAsync(bin, "pg_ctl", args(action, ...extra));
  await ctl("start", "-t", "30");
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => ctl("stop", "-m", "fast", "-t", "30"),
    start: () => ctl("start", "-t", "30"),
    restart: () => ctl("restart", "-m", "fast", "-t", "30"),
    destroy() {
      try {
        pgTool(bin, "pg_ctl", args("stop", "-m", "immediate", "-t", "30"));
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether a Redis on loopback `port` answers PING now. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
  });
}

function uidOf(user: string): number {
  return Number(execFileSync("id", ["-u", user]).toString().trim());
}
function gidOf(user: string): number {
  return Number(execFileSync("id", ["-g", user]).toString().trim());
}

export interface PrivateRedis {
  readonly url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  restart(): Promise<void>;
}

/** Whether redis-server can be started here; in CI it must (throws otherwise). */
export function privateRedisAvailable(): boolean {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "pipe" });
    return true;
  } catch {
    if (IN_CI) throw new Error("redis-server is missing: CI must run these tests");
    console.warn("\n!!! redis-server is missing: the Redis fault tests are SKIPPED.\n");
    return false;
  }
}

/** A redis-server without persistence on a free port; restart keeps the port. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    if (child !== undefined && child.exitCode === null) return;
    const started = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      // No pipes to this process: it outlives nothing of ours and needs nothing read.
      { stdio: "ignore" },
    );
    child = started;
    let exited = false;
    started.once("exit", () => {
      exited = true;
    });
    // Ready once it answers PING (bounded).
    for (let i = 0; i < 200; i++) {
      if (exited) throw new Error("redis-server exited at start");
      if (await answersPing(port)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("redis-server did not start");
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGKILL");
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    stop,
    restart: async () => {
      await stop();
      await start();
    },
  };
}
