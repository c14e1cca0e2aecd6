#!/usr/bin/env node
// `pnpm start`: runs the gateway (apps/gateway) with embedded defaults, or with
// `pnpm start -- --config <file>` / INTERLINGUA_CONFIG=<file>. It prints the listen address and a
// usable API key. The format packages are consumed from their dist/, so they are built first
// (turbo's cache makes this a no-op when nothing changed; `--no-build` skips it).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

const argv = process.argv.slice(2).filter((arg) => arg !== "--");
const build = !argv.includes("--no-build");
const args = argv.filter((arg) => arg !== "--no-build");

if (build) {
  const result = spawnSync(
    "pnpm",
    [
      "exec",
      "turbo",
      "run",
      "build",
      "--filter=@interlingua/gateway^...",
      "--output-logs=errors-only",
    ],
    { cwd: root, stdio: "inherit" },
  );
  if (result.status !== 0) {
    // A package being edited may fail to build; its last good dist/ still runs the gateway.
    const packages = [
      "core-types",
      "errors",
      "sse",
      "fmt-chat",
      "fmt-messages",
      "fmt-native",
      "fmt-responses",
    ];
    const missing = packages.filter(
      (p) => !existsSync(new URL(`../packages/${p}/dist/index.js`, import.meta.url)),
    );
    if (missing.length > 0) process.exit(result.status ?? 1);
    console.warn("build failed; starting with the packages' existing dist/");
  }
}

const { main } = await import("../apps/gateway/src/serve-command.ts");
await main(args[0] === "serve" || args[0] === "check" ? args : ["serve", ...args]);
