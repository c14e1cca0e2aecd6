import { spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseConfigText } from "../src/config/load-config.ts";
import { freePort } from "./private-services.ts";

// Issue 27, point 6: what an operator meets when starting the gateway. A start that cannot
// succeed says why in one line and exits 1; secrets come from the environment.

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));

/** Runs `interlingua serve` on a config until it exits (bounded). */
async function serve(
  config: Record<string, unknown>,
  env: Record<string, string> = {},
): Promise<{ code: number | null; stderr: string }> {
  const dir = await mkdtemp(join(tmpdir(), "gw-start-"));
  const file = join(dir, "config.json");
  await writeFile(file, JSON.stringify({ files_dir: join(dir, "files"), ...config }));
  const child = spawn(process.execPath, [CLI, "serve", "--config", file], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
  });
  let stderr = "";
  child.stderr.on("data", (data: Buffer) => {
    stderr += data.toString();
  });
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.once("exit", (exit) => {
      clearTimeout(timer);
      resolve(exit);
    });
  });
  return { code, stderr };
}

/** A config's `${NAME}` reference (not a template literal). */
const ref = (name: string) => `$\{${name}}`;

const lines = (text: string) => text.split("\n").filter((line) => line.trim() !== "");

describe("startup failures", () => {
  it("a port in use: one line naming it, exit 1, no stack trace", async () => {
    const blocker = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, "127.0.0.1", resolve));
    try {
      const { code, stderr } = await serve({ listen: { host: "127.0.0.1", port } });
      expect(code).toBe(1);
      expect(lines(stderr)).toEqual([
        `interlingua: cannot start: cannot listen on 127.0.0.1:${port}: the port is in use (change listen.port or PORT)`,
      ]);
    } finally {
      blocker.close();
    }
  }, 40_000);

  it("an unreachable database: one line with where it is (no password), exit 1", async () => {
    const port = await freePort();
    const { code, stderr } = await serve({
      listen: { host: "127.0.0.1", port: 0 },
      database_url: `postgres://gateway:s3cret-pw@127.0.0.1:${port}/interlingua`,
    });
    expect(code).toBe(1);
    expect(lines(stderr)).toHaveLength(1);
    expect(stderr).toContain(
      `interlingua: cannot start: cannot reach the database at postgres://127.0.0.1:${port}/interlingua: `,
    );
    expect(stderr).toMatch(/ECONNREFUSED/);
    expect(stderr).not.toContain("s3cret-pw");
    expect(stderr).not.toMatch(/^\s+at /m);
  }, 40_000);

  it("a Redis URL that is not one: a config error naming redis_url, exit 1", async () => {
    const { code, stderr } = await serve({ redis_url: "http://127.0.0.1:6379" });
    expect(code).toBe(1);
    expect(stderr).toMatch(/redis_url: /);
    expect(stderr).not.toMatch(/^\s+at /m);
  }, 40_000);

  it("a secret named in the config but not set: a config error naming its path", async () => {
    const { code, stderr } = await serve(
      {
        tokens: [{ key: ref("GATEWAY_TEST_UNSET_KEY"), user: "u" }],
        users: [{ id: "u", quota: 1 }],
      },
      {},
    );
    expect(code).toBe(1);
    expect(stderr).toContain(
      `tokens[0].key: ${ref("GATEWAY_TEST_UNSET_KEY")} is not set (set GATEWAY_TEST_UNSET_KEY or GATEWAY_TEST_UNSET_KEY_FILE)`,
    );
  }, 40_000);
});

describe("secrets from the environment", () => {
  const yaml = [
    `database_url: postgres://gateway:${ref("DB_PASSWORD")}@db:5432/interlingua`,
    "channels:",
    `  - { name: oa, protocol: openai, base_url: https://api.example.com, api_key: '${ref("OPENAI_KEY")}', models: [txtA-5] }`,
    `tokens: [{ key: 'literal $${ref("NOT_A_VAR")}', user: u, unlimited: true }]`,
    "users: [{ id: u, quota: 1 }]",
  ].join("\n");

  it("a reference takes the variable's value", () => {
    const result = parseConfigText(yaml, "c.yaml", { DB_PASSWORD: "pw1", OPENAI_KEY: "sk-abc" });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.database_url).toBe("postgres://gateway:pw1@db:5432/interlingua");
    expect(result.config.channels[0]?.api_key).toBe("sk-abc");
    expect(result.config.tokens[0]?.key).toBe(`literal ${ref("NOT_A_VAR")}`);
  });

  it("NAME_FILE is read when NAME is unset (Docker secrets), without its final newline", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gw-secret-"));
    await writeFile(join(dir, "db"), "pw-from-file\n");
    await writeFile(join(dir, "key"), "sk-from-file");
    const result = parseConfigText(yaml, "c.yaml", {
      DB_PASSWORD_FILE: join(dir, "db"),
      OPENAI_KEY_FILE: join(dir, "key"),
    });
    expect(result.ok && result.config.database_url).toBe(
      "postgres://gateway:pw-from-file@db:5432/interlingua",
    );
    expect(result.ok && result.config.channels[0]?.api_key).toBe("sk-from-file");
    const missing = parseConfigText(yaml, "c.yaml", {
      DB_PASSWORD_FILE: join(dir, "nope"),
      OPENAI_KEY: "k",
    });
    expect(missing).toEqual({
      ok: false,
      errors: [`database_url: cannot read DB_PASSWORD_FILE (${join(dir, "nope")}): ENOENT`],
    });
  });
});
