import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileExamples, readmeExamples, runExample } from "./readme-examples.js";

// Every ```ts block of every package README, type-checked strictly against the built packages
// and run with Node. Written under node_modules so that `@interlingua/*` resolves as for a user.
const cacheDir = fileURLToPath(new URL("../node_modules/.cache/", import.meta.url));
const examples = readmeExamples();
let dir = "";
let diagnostics = "";

beforeAll(() => {
  mkdirSync(cacheDir, { recursive: true });
  dir = mkdtempSync(join(cacheDir, "readme-examples-"));
  diagnostics = compileExamples(examples, dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("README examples", () => {
  it("there are examples to check", () => {
    expect(examples.length).toBeGreaterThan(10);
  });

  it("all type-check under strict settings", () => {
    expect(diagnostics).toBe("");
  });

  it.each(examples)("$name ($readme:$line) runs", (example) => {
    expect(() => runExample(example, dir)).not.toThrow();
  });
});
