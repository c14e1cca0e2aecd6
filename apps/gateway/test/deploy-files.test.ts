import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { expandEnv } from "../src/config/expand-env.ts";
import { validateConfig } from "../src/config/load-config.ts";
import type { Json } from "./wire.ts";

// The container files, checked where Docker cannot run: the compose file parsed as YAML (merge
// keys resolved, as Compose does), its services, images, ports, healthchecks and order, the
// config it mounts validated by the gateway's own schema, the load balancer's upstreams, and
// the Dockerfile's stages and user.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const COMPOSE = join(ROOT, "deploy/compose.yaml");
const composeDir = dirname(COMPOSE);
const compose: Json = parse(readFileSync(COMPOSE, "utf8"), { merge: true });
const services: Record<string, Json> = compose.services;

/** The host side of a bind mount to `target`, resolved against the compose file. */
function bindSource(service: Json, target: string): string {
  const mount = (service.volumes as string[]).find((v) => v.split(":")[1] === target);
  if (mount === undefined) throw new Error(`no mount at ${target}`);
  return resolve(composeDir, mount.split(":")[0] ?? "");
}

const GATEWAYS = ["gateway-1", "gateway-2"];

describe("deploy/compose.yaml", () => {
  it("has two gateway instances, PostgreSQL, Redis and a load balancer", () => {
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining([...GATEWAYS, "postgres", "redis", "lb", "migrate"]),
    );
    expect(services["postgres"].image).toMatch(/^postgres:\d+/);
    expect(services["redis"].image).toMatch(/^redis:\d+/);
    expect(services["lb"].image).toMatch(/^(nginx|haproxy):\d+/);
  });

  it("pins every image to a version, and builds the gateway from the Dockerfile", () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.image, name).toMatch(/^[\w./-]+:[\w.-]+$/);
      expect(service.image, name).not.toMatch(/:latest$/);
      if (service.build !== undefined) {
        const context = resolve(composeDir, service.build.context);
        expect(existsSync(join(context, service.build.dockerfile)), name).toBe(true);
      }
    }
    for (const name of GATEWAYS) expect(services[name].build, name).toBeDefined();
  });

  it("publishes only the load balancer; the gateways are reached through it", () => {
    expect(services["lb"].ports).toEqual(["8080:80"]);
    for (const [name, service] of Object.entries(services)) {
      if (name !== "lb") expect(service.ports, name).toBeUndefined();
    }
    for (const name of GATEWAYS) expect(services[name].expose).toEqual(["8080"]);
  });

  it("health-checks every long-running service and starts them in order", () => {
    for (const [name, service] of Object.entries(services)) {
      if (name === "migrate") continue;
      expect(service.healthcheck?.test, name).toBeDefined();
      expect(service.healthcheck.test[0], name).toBe("CMD");
    }
    for (const name of GATEWAYS) {
      const gateway = services[name];
      expect(gateway.healthcheck.test.join(" ")).toContain("/readyz");
      expect(gateway.depends_on).toEqual({
        postgres: { condition: "service_healthy" },
        redis: { condition: "service_healthy" },
        migrate: { condition: "service_completed_successfully" },
      });
    }
    expect(services["lb"].depends_on).toEqual({
      "gateway-1": { condition: "service_healthy" },
      "gateway-2": { condition: "service_healthy" },
    });
  });

  it("mounts one gateway config that the gateway's schema accepts, on the compose network", () => {
    const sources = new Set(
      [...GATEWAYS, "migrate"].map((name) =>
        bindSource(services[name], "/etc/interlingua/gateway.yaml"),
      ),
    );
    expect(sources.size).toBe(1);
    const [file = ""] = sources;
    // Its secrets are references, resolved from the environment the gateways get.
    const expanded = expandEnv(parse(readFileSync(file, "utf8")), {
      DB_PASSWORD: "pw-from-secret",
      DEMO_API_KEY: "sk-from-secret",
    });
    if (!expanded.ok) throw new Error(expanded.errors.join("\n"));
    const result = validateConfig(expanded.value);
    if (!result.ok) throw new Error(result.errors.join("\n"));
    const config = result.config;
    expect(config.listen).toEqual({ host: "0.0.0.0", port: 8080 });
    const database = new URL(config.database_url);
    expect(database.hostname).toBe("postgres");
    const env = services["postgres"].environment;
    expect(decodeURIComponent(database.username)).toBe(env.POSTGRES_USER);
    expect(decodeURIComponent(database.password)).toBe("pw-from-secret");
    expect(config.tokens[0]?.key).toBe("sk-from-secret");
    expect(database.pathname).toBe(`/${env.POSTGRES_DB}`);
    expect(new URL(config.redis_url ?? "").hostname).toBe("redis");
    expect(config.metrics.enabled).toBe(true);
    for (const name of GATEWAYS) {
      const volume = (services[name].volumes as string[]).find((v) => v.startsWith("files:"));
      expect(config.files_dir.startsWith(volume?.split(":")[1] ?? "?"), name).toBe(true);
    }
  });

  it("keeps secrets out of the files: passwords and keys come from Docker secrets", () => {
    const text = readFileSync(COMPOSE, "utf8");
    expect(text).not.toMatch(/POSTGRES_PASSWORD:/);
    expect(services["postgres"].environment.POSTGRES_PASSWORD_FILE).toBe(
      "/run/secrets/db_password",
    );
    expect(services["postgres"].secrets).toContain("db_password");
    for (const name of [...GATEWAYS, "migrate"]) {
      const service = services[name];
      expect(service.environment.DB_PASSWORD_FILE, name).toBe("/run/secrets/db_password");
      expect(service.environment.DEMO_API_KEY_FILE, name).toBe("/run/secrets/demo_api_key");
      expect(service.secrets, name).toEqual(["db_password", "demo_api_key"]);
    }
    expect(Object.keys(compose.secrets).sort()).toEqual(["db_password", "demo_api_key"]);
    const config = readFileSync(
      bindSource(services["gateway-1"], "/etc/interlingua/gateway.yaml"),
      "utf8",
    );
    // `${NAME}` references (written without a template literal's look).
    expect(config).toContain(`$\{DB_PASSWORD}`);
    expect(config).toContain(`$\{DEMO_API_KEY}`);
    expect(config).not.toMatch(/interlingua:interlingua@/);
  });

  it("does not serve /metrics on the published port", () => {
    const nginx = readFileSync(bindSource(services["lb"], "/etc/nginx/nginx.conf"), "utf8");
    expect(nginx).toMatch(/location = \/metrics \{\s*return 404;\s*\}/);
  });

  it("balances over both instances at their listen port, streams unbuffered", () => {
    const nginx = readFileSync(bindSource(services["lb"], "/etc/nginx/nginx.conf"), "utf8");
    const servers = [...nginx.matchAll(/^\s*server\s+([\w.-]+):(\d+)/gm)].map(
      (m) => `${m[1]}:${m[2]}`,
    );
    expect(servers.sort()).toEqual(GATEWAYS.map((g) => `${g}:8080`));
    expect(nginx).toMatch(/proxy_buffering\s+off;/);
    expect(nginx).toMatch(/location = \/lb-health/);
  });
});

describe("Dockerfile", () => {
  const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
  const stages = dockerfile.split(/^FROM /m).slice(1);

  it("is multi-stage on Node 24 slim and runs as a non-root user", () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24(\.\d+)*-slim$/m);
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage).toMatch(/^\$\{NODE_IMAGE\} AS \w+/);
    const runtime = stages.at(-1) ?? "";
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).not.toMatch(/^USER root$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*\n?.*\/healthz/m);
    expect(runtime).toMatch(/^ENTRYPOINT \["node", "src\/cli\.ts"\]$/m);
  });

  it("installs from the lockfile and keeps dev dependencies out of the runtime image", () => {
    expect(dockerfile).toContain("pnpm install --frozen-lockfile --prod");
    const runtime = stages.at(-1) ?? "";
    expect(runtime).not.toMatch(/pnpm install/);
    expect(readFileSync(join(ROOT, ".dockerignore"), "utf8")).toMatch(/^\*\*\/node_modules$/m);
  });
});
