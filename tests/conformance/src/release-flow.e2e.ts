import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
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
import { publishablePackages, repoRoot, subpaths } from "./packages.js";
import { compileExamples, readmeExamples, runExample } from "./readme-examples.js";

// The release flow end to end, against a throwaway local registry: the repository's own pending
// changesets through `changeset status` and `changeset version` in a copy of the workspace, then
// `changeset publish` (pnpm publish underneath, so workspace: ranges are rewritten), then a new
// npm project installs the published packages, imports every entry and runs every README example.
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
      // Publishing nine packages or installing them takes a minute or two on a loaded machine.
      timeout: 300_000,
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
      // Verdaccio's defaults give up on the upstream for five minutes after two slow answers
      // and then answer 404 for every third-party package: too touchy for a loaded machine.
      "    timeout: 120s",
      "    max_fails: 50",
      "    fail_timeout: 1s",
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
  const ws = () => join(tmp, "workspace");

  it("the repository's own changesets: status, version, a CHANGELOG.md each", () => {
    const root = ws();
    layOutWorkspace(root);
    const pending = pendingChangesets(root);
    expect(pending.length, "pending changesets").toBeGreaterThan(0);
    const before = new Map(packages.map((p) => [p.name, readVersion(root, p.dir)]));

    // status compares with main: the copy is a one-commit repository on main.
    const git = ["-c", "user.name=release-test", "-c", "user.email=release@test.invalid"];
    sh("git", ["init", "--quiet", "--initial-branch=main"], root);
    sh("git", ["add", "--all"], root);
    sh("git", [...git, "commit", "--quiet", "--message", "release test"], root);
    // status and version refuse a changeset naming a private (ignored) package, among others.
    sh(process.execPath, [changesetBin, "status"], root);
    sh(process.execPath, [changesetBin, "version"], root);

    for (const pkg of packages) {
      const version = readVersion(root, pkg.dir);
      // Never published: 0.0.0 in the repository, and the first release is 0.1.0 (pre-1.0, a
      // minor bump marks a breaking change). Later releases only ever move forward.
      if (before.get(pkg.name) === "0.0.0") expect(version, pkg.name).toBe("0.1.0");
      else expect(version, pkg.name).not.toBe(before.get(pkg.name));
      versions.set(pkg.name, version);
      const changelog = readFileSync(
        join(root, "packages", folder(pkg.dir), "CHANGELOG.md"),
        "utf8",
      );
      expect(changelog, pkg.name).toContain(`## ${version}`);
      // Every pending changeset that names the package is in its changelog.
      for (const changeset of pending.filter((c) => c.packages.includes(pkg.name))) {
        expect(changelog, `${pkg.name}: ${changeset.file}`).toContain(changeset.headline);
      }
    }
    expect(pendingChangesets(root)).toEqual([]);
    // Private packages are neither versioned nor published.
    for (const dir of privatePackageDirs()) {
      const manifest = (at: string) => JSON.parse(readFileSync(join(at, "package.json"), "utf8"));
      const copy = join(root, dir.slice(repoRoot.length));
      expect(manifest(copy).version, dir).toBe(manifest(dir).version);
    }
  });

  it("publishes what changeset version wrote", async () => {
    expect(versions.size).toBe(packages.length);
    // Tags belong to the maintainer's checkout, not to this copy.
    sh(process.execPath, [changesetBin, "publish", "--no-git-tag"], ws());
    for (const pkg of packages) {
      // The registry's own answer for the version, as `npm view name@version` reads it (an npm
      // process per package cost more than the check).
      const res = await fetch(`${registry}${pkg.name.replace("/", "%2f")}`);
      expect(res.status, pkg.name).toBe(200);
      const document = (await res.json()) as {
        versions?: Record<string, { version: string; dependencies?: Record<string, string> }>;
      };
      const info = document.versions?.[versions.get(pkg.name)!];
      expect(info?.version, pkg.name).toBe(versions.get(pkg.name));
      // pnpm publish rewrote workspace: ranges into real ones.
      expect(JSON.stringify(info?.dependencies ?? {})).not.toContain("workspace:");
    }
  });

  it("a new npm project installs them, imports every entry both ways, runs the README examples", () => {
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

    const entries = packages.flatMap((pkg) =>
      subpaths(pkg).map((sub) => (sub === "." ? pkg.name : `${pkg.name}${sub.slice(1)}`)),
    );
    writeFileSync(
      join(app, "entries.mjs"),
      [
        'import { createRequire } from "node:module";',
        "const require = createRequire(import.meta.url);",
        `const entries = ${JSON.stringify(entries)};`,
        "const empty = [];",
        "for (const entry of entries) {",
        "  if (Object.keys(await import(entry)).length === 0) empty.push('import ' + entry);",
        "  if (Object.keys(require(entry)).length === 0) empty.push('require ' + entry);",
        "}",
        "console.log(JSON.stringify({ loaded: entries.length, empty }));",
      ].join("\n"),
    );
    const loaded = JSON.parse(sh(process.execPath, ["entries.mjs"], app).trim().split("\n").pop()!);
    expect(loaded).toEqual({ loaded: entries.length, empty: [] });

    for (const pkg of packages) {
      const installed = join(app, "node_modules", pkg.name);
      expect(existsSync(join(installed, "CHANGELOG.md")), pkg.name).toBe(true);
      expect(existsSync(join(installed, "LICENSE")), pkg.name).toBe(true);
    }
    // Code a build inlines ships with its licence.
    expect(
      readFileSync(join(app, "node_modules/@interlingua/sse/THIRD_PARTY_NOTICES.md"), "utf8"),
    ).toContain("eventsource-parser");

    const examples = readmeExamples();
    expect(compileExamples(examples, app)).toBe("");
    for (const example of examples) runExample(example, app);
  });
});

/**
 * The repository as `changeset version` and `pnpm publish` see it: the root manifest, the
 * workspace file, the real .changeset folder, every workspace package's manifest, and each
 * publishable package as it would be packed (built dist, README, LICENSE, notices).
 */
function layOutWorkspace(root: string): void {
  mkdirSync(root, { recursive: true });
  for (const file of ["package.json", "pnpm-workspace.yaml", "pnpm-lock.yaml"]) {
    cpSync(join(repoRoot, file), join(root, file));
  }
  cpSync(join(repoRoot, ".changeset"), join(root, ".changeset"), { recursive: true });
  for (const dir of privatePackageDirs()) {
    const to = join(root, dir.slice(repoRoot.length));
    mkdirSync(to, { recursive: true });
    cpSync(join(dir, "package.json"), join(to, "package.json"));
  }
  for (const pkg of packages) {
    cpSync(pkg.dir, join(root, "packages", folder(pkg.dir)), {
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
      const link = join(root, "packages", folder(pkg.dir), "node_modules", dep);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(join(root, "packages", folder(target.dir)), link, "dir");
    }
  }
}

/** The private workspace packages (apps, tests, bench), by folder. */
function privatePackageDirs(): string[] {
  return ["apps", "tests"]
    .flatMap((group) =>
      readdirSync(join(repoRoot, group), { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => join(repoRoot, group, d.name)),
    )
    .concat(join(repoRoot, "bench"))
    .filter((dir) => existsSync(join(dir, "package.json")));
}

interface PendingChangeset {
  file: string;
  packages: string[];
  /** The summary's first line, as the changelog quotes it. */
  headline: string;
}

function pendingChangesets(root: string): PendingChangeset[] {
  const folder = join(root, ".changeset");
  return readdirSync(folder)
    .filter((file) => file.endsWith(".md") && file !== "README.md")
    .map((file) => {
      const text = readFileSync(join(folder, file), "utf8");
      const [, front = "", body = ""] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text) ?? [];
      const packages = front
        .split("\n")
        .map((line) => /^["']?([^"':]+)["']?\s*:/.exec(line.trim())?.[1])
        .filter((name): name is string => name !== undefined);
      return { file, packages, headline: body.trim().split("\n")[0] ?? "" };
    });
}

function folder(dir: string): string {
  return basename(dir);
}

function readVersion(ws: string, dir: string): string {
  const file = join(ws, "packages", folder(dir), "package.json");
  return JSON.parse(readFileSync(file, "utf8")).version;
}
