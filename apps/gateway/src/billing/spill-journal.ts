import { createHash } from "node:crypto";
import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type { SpilledBatch } from "./charge-batcher.ts";

// Settlements that shutdown could not write (the database was unreachable for the whole bounded
// wait, or a call settled after it) are kept in a journal file next to the data, one JSON batch
// per line, and applied by the next start against the same database. Each batch keeps its id, so
// applying a journal twice (two instances, or a crash before the file was removed) charges once.

/** Where the journal of one database lives; undefined for a throwaway (in-memory) database. */
export interface SpillPlace {
  readonly dir: string;
  /** Names the database (a hash of its URL): a journal is only ever applied to its own. */
  readonly key: string;
}

export function spillPlace(databaseUrl: string, dataDir: string): SpillPlace | undefined {
  if (/^sqlite:(:memory:)?$/.test(databaseUrl) || databaseUrl.includes(":memory:")) {
    return undefined;
  }
  const key = createHash("sha256").update(databaseUrl).digest("hex").slice(0, 16);
  return { dir: dataDir, key };
}

const lines = (batches: readonly SpilledBatch[]) =>
  batches.map((b) => `${JSON.stringify(b)}\n`).join("");

const prefix = (place: SpillPlace) => `pending-charges-${place.key}-`;

/** Appends batches to this instance's journal file (created when needed); returns its path. */
export function appendSpill(
  place: SpillPlace,
  owner: string,
  batches: readonly SpilledBatch[],
): string {
  mkdirSync(place.dir, { recursive: true });
  const path = join(place.dir, `${prefix(place)}${owner}.jsonl`);
  appendFileSync(path, lines(batches), { mode: 0o600 });
  return path;
}

/** A file with a torn line is left alone this long: its writer may still be appending to it. */
const TORN_GRACE_MS = 60_000;

/**
 * Every journal of this database: the files that may be removed once their batches are written,
 * and the batches of all of them. A torn line (a crash, or a writer still at work when another
 * instance shares the directory) is skipped, and its file is only removed once it is old.
 */
export function readSpills(place: SpillPlace): { files: string[]; batches: SpilledBatch[] } {
  let names: string[];
  try {
    names = readdirSync(place.dir);
  } catch {
    return { files: [], batches: [] };
  }
  const files: string[] = [];
  const batches: SpilledBatch[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix(place)) || !name.endsWith(".jsonl")) continue;
    const file = join(place.dir, name);
    let torn = false;
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      try {
        batches.push(JSON.parse(line) as SpilledBatch);
      } catch {
        torn = true;
      }
    }
    if (!torn || Date.now() - statSync(file).mtimeMs > TORN_GRACE_MS) files.push(file);
  }
  return { files, batches };
}

/**
 * Makes `owner`'s journal hold exactly `left` (removing it when empty), then removes `files`
 * (journals read and now written, or carried over into this one).
 */
export function replaceSpills(
  place: SpillPlace,
  owner: string,
  files: readonly string[],
  left: readonly SpilledBatch[],
): void {
  const own = join(place.dir, `${prefix(place)}${owner}.jsonl`);
  if (left.length > 0) {
    // Written aside and renamed in, so a crash leaves either the old journals or the new one.
    mkdirSync(place.dir, { recursive: true });
    writeFileSync(`${own}.tmp`, lines(left), { mode: 0o600 });
    renameSync(`${own}.tmp`, own);
  } else {
    rmSync(own, { force: true });
  }
  for (const file of files) if (file !== own) rmSync(file, { force: true });
}
