import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startProviderSim } from "@interlingua/provider-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { runCli } from "../src/serve-command.ts";
import { REDIS_URL, redisReachable } from "./redis-support.ts";
import { type Sim, UPSTREAM_KEY } from "./stack.ts";
import { dropSchema, freshSchema, POSTGRES_URL, postgresReachable } from "./storage/drivers.ts";

/** Runs `interlingua doctor --config <file>`: exit code and printed lines. */
async function doctor(file: string): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
  const result = await runCli(["doctor", "--config", file], {}, io);
  if (typeof result !== "number") {
    await result.close();
    throw new Error("doctor started a gateway");
  }
  return { code: result, lines };
}

const line = (lines: string[], name: string) =>
  lines.find((l) => l.slice(6).startsWith(`${name} `)) ?? `(no line for ${name})`;

describe("interlingua doctor", () => {
  let sim: Sim;
  let dir: string;
  beforeAll(async () => {
    sim = await startProviderSim({ port: 0, keys: [UPSTREAM_KEY] });
    dir = await mkdtemp(join(tmpdir(), "doctor-"));
  });
  afterAll(async () => {
    await sim.close();
    await rm(dir, { recursive: true, force: true });
  });

  const channels = (url: string) => [
    { name: "oa", protocol: "openai", base_url: url, api_key: UPSTREAM_KEY, models: ["txtA-5"] },
    {
      name: "an",
      protocol: "anthropic",
      base_url: url,
      api_key: UPSTREAM_KEY,
      models: ["txtB-sonnet-4-6"],
    },
    {
      name: "ge",
      protocol: "gemini",
      base_url: url,
      api_key: UPSTREAM_KEY,
      models: ["txtC-2.5-pro"],
    },
  ];

  const writeConfig = async (name: string, config: object) => {
    const file = join(dir, name);
    await writeFile(file, stringify(config));
    return file;
  };

  it("passes with a reachable database, Redis and channels whose keys are accepted", async () => {
    const withRedis = await redisReachable("doctor");
    const file = await writeConfig("good.yaml", {
      database_url: `sqlite:${join(dir, "good.db")}`,
      ...(withRedis ? { redis_url: REDIS_URL } : {}),
      files_dir: join(dir, "files"),
      channels: channels(sim.url),
    });
    const { code, lines } = await doctor(file);
    expect(code, lines.join("\n")).toBe(0);
    expect(line(lines, "config")).toMatch(/^ok {4}config .*3 channels/);
    expect(line(lines, "database")).toMatch(/^ok .*sqlite connected/);
    // A fresh database: nothing applied yet, which serve does at start.
    expect(line(lines, "migrations")).toMatch(/^ok .*pending: 1, 2, 3/);
    if (withRedis) expect(line(lines, "redis")).toMatch(/^ok .*PING/);
    for (const name of ["oa", "an", "ge"]) {
      expect(line(lines, `channel ${name}`)).toMatch(/^ok .*key accepted \(HTTP 200/);
    }
    expect(lines.at(-1)).toBe("all checks passed");
  });

  it("fails, naming each problem: refused key, unreachable channel, Redis, database", async () => {
    const file = await writeConfig("bad.yaml", {
      database_url: "postgres://nobody@127.0.0.1:1/none",
      redis_url: "redis://127.0.0.1:1",
      files_dir: join(dir, "files"),
      channels: [
        { ...channels(sim.url)[0], name: "wrong-key", api_key: "uk-wrong-0000-0000" },
        { ...channels(sim.url)[2], name: "gemini-wrong", api_key: "uk-wrong-0000-0000" },
        { ...channels(sim.url)[1], name: "nowhere", base_url: "http://127.0.0.1:1" },
      ],
    });
    const { code, lines } = await doctor(file);
    expect(code).toBe(1);
    expect(line(lines, "channel wrong-key")).toMatch(/^FAIL .*key refused \(HTTP 401\)/);
    expect(line(lines, "channel gemini-wrong")).toMatch(/^FAIL .*key refused \(HTTP (401|403)\)/);
    expect(line(lines, "channel nowhere")).toMatch(/^FAIL .*unreachable/);
    expect(line(lines, "redis")).toMatch(/^FAIL .*unreachable/);
    expect(line(lines, "database")).toMatch(/^FAIL .*cannot connect/);
    // database, migrations (unknown), redis and the three channels.
    expect(lines.at(-1)).toBe("6 checks failed");
  });

  it("reads an up-to-date PostgreSQL schema as migrated", async () => {
    if (!(await postgresReachable())) return;
    const schema = freshSchema("doctor");
    const url = new URL(POSTGRES_URL);
    url.searchParams.set("schema", schema);
    const file = await writeConfig("pg.yaml", {
      database_url: url.toString(),
      files_dir: join(dir, "files"),
      channels: channels(sim.url).slice(0, 1),
    });
    try {
      const migrate = await runCli(["migrate", "--config", file], {}, { out() {}, err() {} });
      expect(migrate).toBe(0);
      const { code, lines } = await doctor(file);
      expect(code, lines.join("\n")).toBe(0);
      expect(line(lines, "database")).toMatch(/^ok .*postgres connected/);
      expect(line(lines, "migrations")).toMatch(/^ok .*schema up to date/);
    } finally {
      await dropSchema(schema);
    }
  });
});
