import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { useCompileCache } from "./scripts/test/compile-cache";

// Before vitest starts its workers, so they (and what they start) share the cache.
useCompileCache();

/**
 * One vitest configuration for every workspace package, so a fresh clone's `pnpm test` behaves
 * the same everywhere: property tests run on one seed per run (fixed in CI, random and printed
 * elsewhere), and timeouts are sized for a loaded two-core machine, not for an idle laptop.
 */

/** The seed CI runs on: any change that breaks a property under it is a real failure, every run. */
export const CI_SEED = 20_261_128;

const randomSeed = () => Math.floor(Math.random() * 2 ** 31);

/** A seed asked for with FC_SEED, replayed by both runs; undefined when none (or "random"). */
function askedSeed(): number | undefined {
  const asked = process.env["FC_SEED"];
  if (asked === undefined || asked === "" || asked === "random") return undefined;
  const seed = Number(asked);
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer, got ${asked}`);
  return seed;
}

const asked = askedSeed();
const forceRandom = process.env["FC_SEED"] === "random";
/** The whole suite's seed: CI_SEED in CI, random elsewhere (FC_SEED=random: random in CI too). */
const seed = asked ?? (process.env["CI"] && !forceRandom ? CI_SEED : randomSeed());
/**
 * The bounded random-seed run every `vitest run` adds beside the whole suite: the property files
 * once more on a fresh seed, in the same process (it was a turbo task of its own, `test:random`,
 * whose vitest and worker start-up cost as much as its tests). Left out when FC_SEED replays
 * one seed: the second run would repeat the first.
 */
const second = asked === undefined ? randomSeed() : undefined;
// Printed once per package run, so a failure found on a random seed can be replayed exactly.
console.log(`fast-check seed ${seed} (replay with FC_SEED=${seed})`);

const setup = fileURLToPath(new URL("./scripts/test/fast-check-seed.ts", import.meta.url));

/** A test file that runs properties: fast-check itself, or a package's `testing` laws. */
const PROPERTY_FILE = /from "fast-check"|testing(?:\.[jt]s)?"/;

/**
 * The random-seed run repeats only the files that hold properties: the rest would run the same
 * examples again.
 */
function propertyFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && entry.name !== "dist") walk(path);
      } else if (
        entry.name.endsWith(".test.ts") &&
        PROPERTY_FILE.test(readFileSync(path, "utf8"))
      ) {
        found.push(path.slice(dir.length + 1));
      }
    }
  };
  for (const top of ["src", "test"]) walk(join(dir, top));
  return found;
}

export interface SharedOptions {
  /**
   * Share one module graph between the test files of a worker. Pure packages import zod,
   * fast-check and their own sources once instead of once per file (import was 60-80% of their
   * test time), and the apps' integration suites import the whole gateway once per worker
   * instead of once per file. A suite whose files keep process-wide state must stay isolated;
   * try a new `false` with `vitest run --sequence.shuffle.files` a few times.
   */
  readonly isolate?: boolean;
  /**
   * Test files run at once. Integration suites mostly wait on sockets, child processes and
   * timers, so more workers than cores shortens them; CPU-bound suites keep vitest's default.
   */
  readonly maxWorkers?: number;
  /**
   * Run the property files a second time on a fresh random seed, in the same process (the
   * packages, whose properties are their laws; the apps' properties stay on the one seed).
   */
  readonly randomRun?: boolean;
}

export function sharedConfig(options: SharedOptions = {}) {
  const base = {
    setupFiles: [setup],
    // A loaded two-core machine can stall a worker for seconds; every loop under test is
    // bounded by its own count, so these only bound the wait.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    isolate: options.isolate ?? true,
    ...(options.maxWorkers === undefined ? {} : { maxWorkers: options.maxWorkers }),
  };
  const properties = options.randomRun && second !== undefined ? propertyFiles(process.cwd()) : [];
  if (properties.length === 0) {
    return defineConfig({ test: { ...base, env: { FC_SEED: String(seed) } } });
  }
  console.log(`fast-check seed ${second} for the "random" run (replay with FC_SEED=${second})`);
  // Two projects in one process: "seed" is the whole suite on the run's seed, "random" the
  // property files on the second seed. Each project's workers get their own FC_SEED.
  return defineConfig({
    test: {
      ...base,
      projects: [
        { extends: true, test: { name: "seed", env: { FC_SEED: String(seed) } } },
        {
          extends: true,
          test: { name: "random", include: properties, env: { FC_SEED: String(second) } },
        },
      ],
    },
  });
}
