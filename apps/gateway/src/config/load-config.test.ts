import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfigFile, parseConfigText, validateConfig } from "./load-config.ts";

const DESIGN_EXAMPLE = `
listen: { host: 127.0.0.1, port: 8080 }
public_url: http://127.0.0.1:8080
database_url: sqlite:./data/interlingua.db
redis_url: redis://127.0.0.1:6379
files_dir: ./data/files
envelope: spec
billing: { unit: USD, credits_per_usd: 500000 }
webhooks: { allow_private_targets: false }
users:  [ { id: alice, quota: 10000000 } ]
tokens: [ { key: sk-alice-1, user: alice, quota: 5000000 },
          { key: sk-alice-2, user: alice, unlimited: true } ]
channels:
  - { name: oa, protocol: openai,    base_url: http://127.0.0.1:9101, api_key: k1,
      models: [txtA-5, txtA-5-mini, txtD-v3.2, txtA-image-2, txtA-4o-mini-tts, asrW-1],
      priority: 0, weight: 1 }
  - { name: an, protocol: anthropic, base_url: http://127.0.0.1:9102, api_key: k2,
      models: { txtB-sonnet-4-6: upstream-model-name } }
  - { name: ge, protocol: gemini,    base_url: http://127.0.0.1:9103, api_key: k3,
      models: [txtC-2.5-pro, txtC-3.6-flash, vidV3.1-fast, vidV3.1-fast-official] }
pricing:
  txtA-5: { input: 1.25, output: 10, cached_input: 0.125, cache_write: 0 }
  vidV3.1-fast: { per_second: 0.15 }
  txtA-image-2: { per_request: 0.04 }
  txtA-4o-mini-tts: { per_million_characters: 15 }
  asrW-1: { per_minute: 0.006 }
`;

describe("config", () => {
  it("accepts the DESIGN.md §4 example as written", () => {
    const result = parseConfigText(DESIGN_EXAMPLE);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.channels.map((c) => [c.name, c.protocol, c.priority, c.weight])).toEqual([
      ["oa", "openai", 0, 1],
      ["an", "anthropic", 0, 1],
      ["ge", "gemini", 0, 1],
    ]);
    expect(result.config.channels[1]?.models).toEqual({ "txtB-sonnet-4-6": "upstream-model-name" });
    expect(result.config.pricing["vidV3.1-fast"]).toEqual({ per_second: 0.15 });
  });

  it("fills the embedded defaults for an empty file", () => {
    const result = parseConfigText("");
    expect(result).toEqual({
      ok: true,
      config: {
        admins: [],
        listen: { host: "127.0.0.1", port: 8080 },
        database_url: "sqlite:./data/interlingua.db",
        files_dir: "./data/files",
        redis_prefix: "interlingua",
        shutdown: { drain_ms: 10_000, unready_ms: 0 },
        tasks: { step_lease_ms: 20_000, sweep_interval_ms: 10_000 },
        envelope: "spec",
        billing: {
          unit: "USD",
          credits_per_usd: 500000,
          default_output_reserve: 4096,
          flush_max_rows: 200,
          flush_interval_ms: 50,
        },
        webhooks: { allow_private_targets: false, sweep_interval_ms: 30_000 },
        limits: {
          max_body_bytes: 33554432,
          rate_limit: {},
          body_timeout_ms: 30_000,
          max_inflight_body_bytes: 268435456,
        },
        users: [],
        tokens: [],
        channels: [],
        pricing: {},
        metrics: { enabled: false, path: "/metrics" },
        tracing: { enabled: false },
        responses: {
          retention_days: 30,
          max_bytes: 64 * 1024 * 1024,
          follow_up_wait_ms: 10_000,
          background_claim_ms: 15 * 60_000,
          stream_events_max: 50_000,
          stream_events_max_bytes: 16 * 1024 * 1024,
        },
        images: { wait_seconds: 120, max_wait_seconds: 600 },
      },
    });
  });

  it("reads JSON files by extension and YAML otherwise", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gw-config-"));
    const json = join(dir, "c.json");
    await writeFile(json, JSON.stringify({ listen: { port: 9000 }, envelope: "bare" }));
    const result = await loadConfigFile(json);
    expect(result.ok && [result.config.listen.port, result.config.envelope]).toEqual([
      9000,
      "bare",
    ]);
    const yaml = join(dir, "c.yml");
    await writeFile(yaml, "listen: { port: 9001 }\n");
    const yamlResult = await loadConfigFile(yaml);
    expect(yamlResult.ok && yamlResult.config.listen.port).toBe(9001);
  });

  it("lists every error with its path", () => {
    const result = validateConfig({
      listen: { port: 70000 },
      envelope: "wrapped",
      database_url: "mysql://x",
      users: [{ id: "alice", quota: 1 }],
      tokens: [
        { key: "k", user: "bob", quota: 1 },
        { key: "k", user: "alice" },
      ],
      channels: [
        { name: "a", protocol: "openai", base_url: "ftp://x", api_key: "k", models: [] },
        {
          name: "a",
          protocol: "azure",
          base_url: "http://x",
          api_key: "k",
          models: { m: "n" },
          wieght: 2,
        },
      ],
      pricing: { m: { input: -1 } },
      colour: "blue",
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const paths = result.errors.map((e) => e.slice(0, e.indexOf(":")));
    expect(new Set(paths)).toEqual(
      new Set([
        "(root)",
        "listen.port",
        "envelope",
        "database_url",
        "tokens[1].quota",
        "channels[0].base_url",
        "channels[0].models",
        "channels[1].protocol",
        "channels[1]",
        "pricing.m.input",
      ]),
    );
    expect(result.errors.some((e) => e.includes("colour"))).toBe(true);
    expect(result.errors.some((e) => e.includes("wieght"))).toBe(true);
  });

  it("checks cross references once the shape is valid", () => {
    const result = validateConfig({
      users: [{ id: "alice", quota: 1 }],
      tokens: [
        { key: "k", user: "bob", quota: 1 },
        { key: "k", user: "alice", unlimited: true },
      ],
      channels: [
        { name: "a", protocol: "openai", base_url: "http://x", api_key: "k", models: ["m"] },
        { name: "a", protocol: "gemini", base_url: "http://y", api_key: "k", models: ["n"] },
      ],
    });
    expect(result).toEqual({
      ok: false,
      errors: [
        "tokens[1].key: duplicate token key",
        "channels[1].name: duplicate channel name",
        'tokens[0].user: unknown user "bob" (declare it under users)',
      ],
    });
  });

  it("reports a YAML syntax error with the file name", () => {
    const result = parseConfigText("listen: { port: 80\n", "bad.yaml");
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors[0]).toMatch(/^bad\.yaml: /);
  });
});
