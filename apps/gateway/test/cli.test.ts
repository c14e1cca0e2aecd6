import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig, runCli } from "../src/serve-command.ts";

const capture = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }, out, err };
};

describe("interlingua CLI", () => {
  it("exits 1 and lists every config error with its path", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gw-cli-"));
    const file = join(dir, "bad.yaml");
    await writeFile(file, "listen: { port: -1 }\nenvelope: fancy\nchannels: [{ name: x }]\n");
    const { io, err } = capture();
    expect(await runCli(["serve", "--config", file], {}, io)).toBe(1);
    expect(err[0]).toBe(`invalid configuration in ${file} (6 errors):`);
    expect(err.slice(1).map((l) => l.trim().split(":")[0])).toEqual([
      "listen.port",
      "envelope",
      "channels[0].protocol",
      "channels[0].base_url",
      "channels[0].api_key",
      "channels[0].models",
    ]);
  });

  it("reads INTERLINGUA_CONFIG when --config is absent, and check validates only", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gw-cli-"));
    const file = join(dir, "ok.json");
    await writeFile(file, JSON.stringify({ listen: { port: 1234 } }));
    const { io, out } = capture();
    expect(await runCli(["check"], { INTERLINGUA_CONFIG: file }, io)).toBe(0);
    expect(out).toEqual([`configuration OK: ${file}`]);
  });

  it("PORT overrides the configured port and is validated", async () => {
    const ok = await resolveConfig(undefined, { PORT: "9123" });
    expect(ok.ok && ok.config.listen).toEqual({ host: "127.0.0.1", port: 9123 });
    expect(await resolveConfig(undefined, { PORT: "http" })).toEqual({
      ok: false,
      errors: ['PORT: must be an integer from 0 to 65535, got "http"'],
    });
  });

  it("refuses unknown commands with usage, exit 2", async () => {
    const { io, err } = capture();
    expect(await runCli(["launch"], {}, io)).toBe(2);
    expect(err[0]).toMatch(/^usage: interlingua serve/);
  });

  it("serve without config starts the simulator and prints the address and a dev key", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gw-cli-"));
    const { io, out } = capture();
    const config = join(dir, "c.yaml");
    await writeFile(
      config,
      `listen: { port: 0 }\nfiles_dir: ${join(dir, "data", "files")}\ndatabase_url: "sqlite:${join(dir, "data", "gw.db")}"\n`,
    );
    const gateway = await runCli(["serve", "--config", config], { LOG_LEVEL: "silent" }, io);
    if (typeof gateway === "number") throw new Error(`exit ${gateway}`);
    try {
      expect(out[0]).toBe(`Interlingua gateway listening on ${gateway.url}`);
      expect(out[1]).toMatch(
        /^No channels configured: built-in provider simulator at http:\/\/127\.0\.0\.1:\d+$/,
      );
      const key = /^API key: (sk-dev-\S+)$/.exec(out[2] ?? "")?.[1];
      expect(key).toBeDefined();
      const models = await fetch(`${gateway.url}/v1/models`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(models.status).toBe(200);
      const ids = ((await models.json()) as { data: { id: string }[] }).data.map((m) => m.id);
      expect(ids).toContain("txtA-5");
      expect(ids).toContain("txtB-opus-4-8");
      expect(ids).toContain("txtC-3.6-flash");
      expect(ids).toContain("txtD-v4-pro");
      // Every docs/api-reference.md family answers without configuration: video, images, speech, transcription.
      for (const id of [
        "vidV3.1-fast",
        "txtA-image-2",
        "txtC-3-pro-image-preview",
        "txtA-4o-mini-tts",
        "asrW-1",
      ])
        expect(ids).toContain(id);
      // OpenAI's Responses-only models answer through the simulated openai-responses channel.
      const codex = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({
          model: "txtA-5.2-codex",
          messages: [{ role: "user", content: "hi codex" }],
        }),
      });
      expect(codex.status).toBe(200);
      const reply = (await codex.json()) as {
        data: { choices: { message: { content: string } }[] };
      };
      expect(reply.data.choices[0]?.message.content).toBe("echo: hi codex");
    } finally {
      await gateway.close();
    }
  });

  it("migrate applies the schema once; token create prints a working key once", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gw-cli-"));
    const config = join(dir, "c.yaml");
    await writeFile(
      config,
      [
        "listen: { port: 0 }",
        `files_dir: ${join(dir, "files")}`,
        `database_url: "sqlite:${join(dir, "gw.db")}"`,
        "users: [{ id: bob, quota: 1000 }]",
        "tokens: [{ key: sk-bob-config, user: bob, quota: 10 }]",
        "",
      ].join("\n"),
    );
    const first = capture();
    expect(await runCli(["migrate", "--config", config], {}, first.io)).toBe(0);
    expect(first.out[0]).toMatch(/^sqlite: applied migrations? \d+/);
    const second = capture();
    expect(await runCli(["migrate", "--config", config], {}, second.io)).toBe(0);
    expect(second.out).toEqual(["sqlite: schema up to date"]);

    const refused = capture();
    expect(
      await runCli(["token", "create", "--user", "bob", "--config", config], {}, refused.io),
    ).toBe(2);
    expect(refused.err[0]).toBe(
      "token create: give exactly one of --quota <credits> and --unlimited",
    );
    const unknown = capture();
    expect(
      await runCli(
        ["token", "create", "--user", "eve", "--quota", "5", "--config", config],
        {},
        unknown.io,
      ),
    ).toBe(1);

    const created = capture();
    const args = ["token", "create", "--user", "bob", "--quota", "500", "--name", "ci"];
    expect(await runCli([...args, "--config", config], {}, created.io)).toBe(0);
    const key = /^API key \(shown once\): (sk-\S+)$/.exec(created.out[1] ?? "")?.[1];
    expect(created.out[0]).toMatch(/^created token \d+ "ci" for bob$/);
    expect(key).toBeDefined();

    const gateway = await runCli(
      ["serve", "--config", config],
      { LOG_LEVEL: "silent" },
      capture().io,
    );
    if (typeof gateway === "number") throw new Error(`exit ${gateway}`);
    try {
      const balance = await fetch(`${gateway.url}/v1/balance`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(await balance.json()).toEqual({
        success: true,
        remain_balance: 0.001,
        remain_credits: 500,
        used_balance: 0,
        used_credits: 0,
        unlimited_quota: false,
      });
    } finally {
      await gateway.close();
    }
  });
});
