import { readFileSync } from "node:fs";

/** The repository root: fixtures/ holds the recorded provider bodies, docs/ the API reference. */
const repoRoot = new URL("../../../", import.meta.url);

export const readRepoFile = (path: string) => readFileSync(new URL(path, repoRoot), "utf8");

/** docs/api-reference.md, the service's API reference (written from docs/api-reference.md). */
export const readApiReference = () => readRepoFile("docs/api-reference.md");

export const fixtureJson = (path: string): unknown => JSON.parse(readRepoFile(`fixtures/${path}`));

/** The `data:` payloads of a `*.chunks.txt` recording, one parsed event per line. */
export const fixtureChunks = (path: string): unknown[] =>
  readRepoFile(`fixtures/${path}`)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
