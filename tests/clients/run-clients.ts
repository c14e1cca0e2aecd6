#!/usr/bin/env node
// `pnpm test:clients`: the real agent CLIs, as their npm packages ship them (pinned in this
// package's devDependencies), each driven headless through a two-turn tool session with reasoning
// against the gateway, with the provider simulator behind it, on every upstream family. Every
// client is configured by its documented options to reach nothing but the gateway (through a
// loopback proxy that records what it sends). With --save, what each client sent on the first
// family is written under fixtures/clients/ for the codec tests; a table of results is printed.
// `pnpm test` runs it without --save, so a test run never rewrites the fixtures.
//
//   pnpm test:clients                 every client x every family
//   pnpm test:clients -- codex        one client (codex, claude, gemini, ai-sdk, openai-agents,
//                                     langchain)
//   pnpm test:clients -- --save       and rewrite the fixtures from what the clients sent
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { KEY, type Stack, startStack, UPSTREAM_KEY } from "../../apps/gateway/test/stack.ts";
import { useCompileCache } from "../../scripts/test/compile-cache.ts";
import { type Recorded, startRecordingProxy } from "./recording-proxy.ts";

// Every session starts a CLI of tens of megabytes of JavaScript: compiled once, not 4 times.
useCompileCache();

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const bin = (pkg: string, path: string) => join(here, "node_modules", pkg, path);
const version = (pkg: string): string =>
  (JSON.parse(readFileSync(bin(pkg, "package.json"), "utf8")) as { version: string }).version;

/** One upstream family: the gateway model that reaches it at the simulator. */
const FAMILIES = [
  { family: "anthropic", model: "txtB-sonnet-4-6" },
  { family: "openai", model: "txtA-5" },
  { family: "gemini", model: "txtC-2.5-pro" },
  { family: "openai-responses", model: "txtA-5.2-codex" },
] as const;
type Family = (typeof FAMILIES)[number];

interface Run {
  command: string;
  args: string[];
  env: Record<string, string>;
}

interface Client {
  name: string;
  pkg: string;
  /** The requests that carry a model turn (the others are the client's own bookkeeping). */
  turn: RegExp;
  run(proxy: string, family: Family, home: string): Run;
}

// The prompt's [[...]] are the simulator's directives: think visibly, then call the named tool;
// the turn after the tool result answers "echo: <the result>".
const prompt = (tool: string) => `Look at the notes file. [[think]] [[tool:${tool}]]`;
const node = process.execPath;

const CLIENTS: Client[] = [
  {
    name: "codex",
    pkg: "@openai/codex",
    turn: /\/v1\/responses$/,
    run: (proxy, f, home) => ({
      command: node,
      args: [
        bin("@openai/codex", "bin/codex.js"),
        "exec",
        "--skip-git-repo-check",
        "--sandbox",
        "read-only",
        "-c",
        "model_provider=interlingua",
        "-c",
        `model_providers.interlingua={name="interlingua",base_url="${proxy}/v1",env_key="INTERLINGUA_KEY",wire_api="responses",http_headers={"x-interlingua-envelope"="bare"}}`,
        "-c",
        'model_reasoning_effort="high"',
        "-c",
        'model_reasoning_summary="auto"',
        "-m",
        f.model,
        // Codex's first tool runs a shell command: the simulator fills it with a harmless word.
        prompt("exec_command"),
      ],
      env: { CODEX_HOME: home, INTERLINGUA_KEY: KEY },
    }),
  },
  {
    name: "claude",
    pkg: "@anthropic-ai/claude-code",
    turn: /\/v1\/messages(\?|$)/,
    run: (proxy, f, home) => ({
      command: node,
      args: [
        // The wrapper finds the native binary among the optional dependencies (no postinstall needed).
        bin("@anthropic-ai/claude-code", "cli-wrapper.cjs"),
        "-p",
        prompt("Read"),
        "--model",
        f.model,
        "--allowedTools",
        "Read",
      ],
      env: {
        ANTHROPIC_BASE_URL: proxy,
        ANTHROPIC_API_KEY: KEY,
        CLAUDE_CONFIG_DIR: home,
        DISABLE_TELEMETRY: "1",
        DISABLE_AUTOUPDATER: "1",
        DISABLE_ERROR_REPORTING: "1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      },
    }),
  },
  {
    name: "gemini",
    pkg: "@google/gemini-cli",
    turn: /:(stream)?[gG]enerateContent/,
    run: (proxy, f, home) => {
      mkdirSync(join(home, ".gemini"), { recursive: true });
      writeFileSync(
        join(home, ".gemini", "settings.json"),
        JSON.stringify({
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
          security: { auth: { selectedType: "gemini-api-key" } },
          general: { disableAutoUpdate: true, disableUpdateNag: true },
        }),
      );
      return {
        command: node,
        args: [
          bin("@google/gemini-cli", "bundle/gemini.js"),
          "-p",
          prompt("read_file"),
          "-m",
          f.model,
          "-y",
        ],
        env: {
          GEMINI_CLI_HOME: home,
          GEMINI_API_KEY: KEY,
          GOOGLE_GEMINI_BASE_URL: proxy,
          GEMINI_CLI_TRUST_WORKSPACE: "true",
        },
      };
    },
  },
  // The SDKs, each a script in sdk/ run on this Node: same proxy, same judging.
  ...sdkClients([
    // AI SDK: OpenAI's Responses, Anthropic's messages and Gemini's generateContent in turn.
    {
      name: "ai-sdk",
      pkg: "ai",
      script: "ai-sdk.ts",
      turn: /\/v1\/(responses|messages)$|:(stream)?[gG]enerateContent/,
    },
    {
      name: "openai-agents",
      pkg: "@openai/agents",
      script: "openai-agents.ts",
      turn: /\/v1\/responses$/,
    },
    {
      name: "langchain",
      pkg: "langchain",
      script: "langchain.ts",
      turn: /\/v1\/(chat\/completions|responses|messages)$/,
    },
  ]),
];

/** A script under sdk/ as a client: BASE, KEY and MODEL in its environment. */
function sdkClients(
  scripts: { name: string; pkg: string; script: string; turn: RegExp }[],
): Client[] {
  return scripts.map(({ name, pkg, script, turn }) => ({
    name,
    pkg,
    turn,
    run: (proxy, f) => ({
      command: node,
      args: [join(here, "sdk", script)],
      env: { BASE: proxy, KEY, MODEL: f.model },
    }),
  }));
}

interface Result {
  client: string;
  version: string;
  family: string;
  ok: boolean;
  seconds: number;
  turns: number;
  detail: string;
}

function exec(run: Run, cwd: string, timeoutMs: number): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(run.command, run.args, {
      cwd,
      // Only what the client needs: no inherited keys or proxies reach it.
      env: {
        PATH: process.env["PATH"] ?? "",
        HOME: run.env["GEMINI_CLI_HOME"] ?? cwd,
        TERM: "dumb",
        NO_COLOR: "1",
        CI: "1",
        // A cache of compiled code, not a setting the client reads.
        NODE_COMPILE_CACHE: process.env["NODE_COMPILE_CACHE"] ?? "",
        ...run.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, output });
    });
  });
}

/** What the client got wrong, or "" when the session went as it should. */
function judge(code: number, output: string, turns: Recorded[]): string {
  if (code !== 0) return `exit ${code}: ${output.trim().split("\n").slice(-3).join(" | ")}`;
  const failed = turns.find((t) => t.status !== 200);
  if (failed) return `HTTP ${failed.status} on ${failed.path}`;
  if (turns.length < 2) return `${turns.length} model turn(s): the tool result never came back`;
  // Thinking turned off for a turn is warned as `thinking=...` (a mapped budget or effort is not).
  const warned = turns.find((t) => /(^|,)thinking=/.test(t.warnings ?? ""));
  if (warned) return `reasoning not kept: ${warned.warnings}`;
  if (!output.includes("echo:")) return "no answer after the tool result";
  return "";
}

/** Sessions at once (CLIENT_SESSIONS overrides; 1 runs them one by one, as before). */
const SESSIONS = Number(process.env["CLIENT_SESSIONS"] ?? 3);

/** One client on one family: its own proxy in front of the gateway, its own folder and home. */
async function session(stack: Stack, client: Client, family: Family, save: boolean) {
  const proxy = await startRecordingProxy(stack.gateway.url);
  const work = mkdtempSync(join(tmpdir(), "interlingua-clients-"));
  writeFileSync(join(work, "notes.txt"), "Buy milk.\n");
  const home = mkdtempSync(join(tmpdir(), `interlingua-${client.name}-`));
  try {
    const started = performance.now();
    const { code, output } = await exec(client.run(proxy.url, family, home), work, 180_000);
    const seconds = (performance.now() - started) / 1000;
    const turns = proxy.take().filter((r) => client.turn.test(r.path));
    const detail = judge(code, output, turns);
    console.log(
      `${detail === "" ? "ok  " : "FAIL"} ${client.name} on ${family.family} (${seconds.toFixed(1)} s, ${turns.length} turns)${detail ? `: ${detail}` : ""}`,
    );
    if (save && family === FAMILIES[0] && detail === "") {
      const dir = join(root, "fixtures", "clients");
      mkdirSync(dir, { recursive: true });
      const fixture = turns.map(({ method, path, headers, body }) => ({
        method,
        path,
        headers,
        body,
      }));
      writeFileSync(
        join(dir, `${client.name}.requests.json`),
        `${JSON.stringify({ client: client.pkg, version: version(client.pkg), requests: fixture }, null, 1)}\n`,
      );
    }
    const result: Result = {
      client: client.name,
      version: version(client.pkg),
      family: family.family,
      ok: detail === "",
      seconds,
      turns: turns.length,
      detail,
    };
    return result;
  } finally {
    await proxy.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2).filter((a) => a !== "--");
  const save = argv.includes("--save");
  const only = argv.filter((a) => !a.startsWith("--"));
  const clients = only.length === 0 ? CLIENTS : CLIENTS.filter((c) => only.includes(c.name));

  const stack: Stack = await startStack({
    extraChannels: (url) => [
      {
        name: "or",
        protocol: "openai-responses",
        base_url: url,
        api_key: UPSTREAM_KEY,
        models: ["txtA-5.2-codex"],
      },
    ],
  });
  const sessions = clients.flatMap((client) => FAMILIES.map((family) => ({ client, family })));
  const results: Result[] = new Array(sessions.length);
  // Sessions run SESSIONS at a time: one at a time, the 24 sessions took about three times their
  // CPU time in wall time (73 s CPU, 337 s wall in a loaded `pnpm test`), the suite's longest
  // task. Each session has its own recording proxy and folder, so what one client sent is never
  // judged as another's. Results print in the fixed client x family order.
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < sessions.length; i = next++) {
      const { client, family } = sessions[i]!;
      results[i] = await session(stack, client, family, save);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(SESSIONS, sessions.length) }, worker));
  } finally {
    await stack.close();
  }
  console.log("\n| client | version | upstream | result | seconds |\n|---|---|---|---|---|");
  for (const r of results) {
    console.log(
      `| ${r.client} | ${r.version} | ${r.family} | ${r.ok ? "pass" : "FAIL"} | ${r.seconds.toFixed(1)} |`,
    );
  }
  if (results.some((r) => !r.ok)) process.exitCode = 1;
}

await main();
