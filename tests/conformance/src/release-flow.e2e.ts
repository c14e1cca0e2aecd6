import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishablePackages, repoRoot } from "./packages.js";
import { compileExamples, readmeExamples, runExample } from "./readme-examples.js";

// The release flow end to end, against a throwaway local registry: a changeset, `changeset
// version`, `changeset publish` (pnpm publish underneath, so workspace: ranges are rewritten),
// then a new npm project installs the published packages and runs every README example.
// Nothing leaves the machine but the registry's fetches of third-party packages (zod), which it
// proxies to the registry npm is configured with. Run with `pnpm test:release` after a build.

const require = createRequire(import.meta.url);
const changesetBin = join(repoRoot, "node_modules", "@changesets", "cli", "bin.js");
const verdaccioBin = require.resolve("verdaccio/bin/verdaccio");
const packages = publishablePackages().filter(
  (p) => !JSON.parse(readFileSync(join(p.dir, "package.json"), "utf8")).private,
);

let tmp = "";
let registry = "";
let server: ChildProcess | undefined;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

async function waitFor(url: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer`);
}

/** Runs a command with the local registry as the only one configured. */
function sh(cmd: string, args: string[], cwd: string): string {
  try {
    return execFileSync(cmd, args, {
      cwd,
      encoding: "utf8",
      timeout: 60_000,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        npm_config_registry: registry,
        npm_config_userconfig: join(tmp, "npmrc"),
      },
    });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), "interlingua-release-"));
  const upstream = execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8" }).trim();
  const port = await freePort();
  registry = `http://127.0.0.1:${port}/`;
  // No auth plugin: anyone may publish @interlingua/*; everything else is proxied.
  writeFileSync(
    join(tmp, "verdaccio.yaml"),
    [
      `storage: ${join(tmp, "storage")}`,
      "uplinks:",
      "  upstream:",
      `    url: ${upstream}`,
      "packages:",
      "  '@interlingua/*':",
      "    access: $all",
      "    publish: $all",
      "  '**':",
      "    access: $all",
      "    proxy: upstream",
      "log: { type: stdout, format: pretty, level: error }",
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(tmp, "npmrc"),
    `registry=${registry}\n//127.0.0.1:${port}/:_authToken=local\n`,
  );
  server = spawn(
    process.execPath,
    [verdaccioBin, "--config", join(tmp, "verdaccio.yaml"), "--listen", `127.0.0.1:${port}`],
    { stdio: "ignore" },
  );
  await waitFor(`${registry}-/ping`, Date.now() + 30_000);
}, 60_000);

afterAll(() => {
  server?.kill();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("release flow against a local registry", () => {
  const versions = new Map<string, string>();

  it("changeset -> version -> publish", () => {
    // A workspace laid out like the repository's, holding only what is published.
    const ws = join(tmp, "workspace");
    mkdirSync(join(ws, ".changeset"), { recursive: true });
    writeFileSync(
      join(ws, "package.json"),
      JSON.stringify({ name: "release-test", private: true, packageManager: "pnpm@10.34.9" }),
    );
    writeFileSync(join(ws, "pnpm-workspace.yaml"), "packages:\n  - packages/*\n");
    writeFileSync(join(ws, "pnpm-lock.yaml"), "lockfileVersion: '9.0'\n");
    cpSync(join(repoRoot, ".changeset", "config.json"), join(ws, ".changeset", "config.json"));
    for (const pkg of packages) {
      cpSync(pkg.dir, join(ws, "packages", folder(pkg.dir)), {
        recursive: true,
        filter: (src) => !/\/(node_modules|src|test|\.turbo)(\/|$)/.test(src.slice(pkg.dir.length)),
      });
    }
    // pnpm publish reads workspace: dependencies' versions through node_modules: link them.
    for (const pkg of packages) {
      const manifest = JSON.parse(readFileSync(join(pkg.dir, "package.json"), "utf8"));
      const deps = { ...manifest.dependencies, ...manifest.devDependencies };
      for (const dep of Object.keys(deps)) {
        const target = packages.find((p) => p.name === dep);
        if (!target) continue;
        const link = join(ws, "packages", folder(pkg.dir), "node_modules", dep);
        mkdirSync(dirname(link), { recursive: true });
        symlinkSync(join(ws, "packages", folder(target.dir)), link, "dir");
      }
    }
    const before = new Map(packages.map((p) => [p.name, readVersion(ws, p.dir)]));
    writeFileSync(
      join(ws, ".changeset", "release-test.md"),
      `---\n${packages.map((p) => `"${p.name}": patch`).join("\n")}\n---\n\nRelease test.\n`,
    );

    sh(process.execPath, [changesetBin, "version"], ws);
    for (const pkg of packages) {
      const version = readVersion(ws, pkg.dir);
      expect(version, pkg.name).not.toBe(before.get(pkg.name));
      versions.set(pkg.name, version);
    }

    // The copy is no git checkout; tagging is the one step left out.
    sh(process.execPath, [changesetBin, "publish", "--no-git-tag"], ws);
    for (const pkg of packages) {
      const info = JSON.parse(
        sh("npm", ["view", `${pkg.name}@${versions.get(pkg.name)}`, "--json"], ws),
      );
      expect(info.version).toBe(versions.get(pkg.name));
      // pnpm publish rewrote workspace: ranges into real ones.
      expect(JSON.stringify(info.dependencies ?? {})).not.toContain("workspace:");
    }
  });

  it("a new npm project installs the published packages and runs the README examples", () => {
    expect(versions.size).toBe(packages.length);
    const app = join(tmp, "app");
    mkdirSync(app);
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true }));
    // The packages, and the optional peers their /testing subpaths need.
    const peers = new Set<string>();
    for (const pkg of packages) {
      const manifest = JSON.parse(readFileSync(join(pkg.dir, "package.json"), "utf8"));
      for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
        peers.add(`${name}@${range}`);
      }
    }
    const specs = [...[...versions].map(([n, v]) => `${n}@${v}`), ...peers];
    sh("npm", ["install", "--no-audit", "--no-fund", ...specs], app);
    const examples = readmeExamples();
    expect(compileExamples(examples, app)).toBe("");
    for (const example of examples) runExample(example, app);
  });
});

function folder(dir: string): string {
  return basename(dir);
}

function readVersion(ws: string, dir: string): string {
  const file = join(ws, "packages", folder(dir), "package.json");
  return JSON.parse(readFileSync(file, "utf8")).version;
}
