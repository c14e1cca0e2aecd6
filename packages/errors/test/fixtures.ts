import { readFileSync } from "node:fs";

/** /work/shared, which holds SPEC.md and the recorded provider fixtures. */
const sharedDir = new URL("../../../../shared/", import.meta.url);

export const readShared = (path: string) => readFileSync(new URL(path, sharedDir), "utf8");

export const fixtureJson = (path: string): unknown => JSON.parse(readShared(`fixtures/${path}`));

/** The `data:` payloads of a `*.chunks.txt` recording, one parsed event per line. */
export const fixtureChunks = (path: string): unknown[] =>
  readShared(`fixtures/${path}`)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
