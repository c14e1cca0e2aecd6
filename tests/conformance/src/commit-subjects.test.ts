import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./packages.js";

// Commit subjects fit in 72 characters (detail goes in the body), from the commit that adopted
// the rule on. Earlier history is what it is.
const RULE_FROM = "cfd1eaa";
const MAX = 72;

function git(args: string[]): string | undefined {
  try {
    return execFileSync("git", args, { cwd: repoRoot, encoding: "utf8", stdio: "pipe" });
  } catch {
    return undefined;
  }
}

const checkout = git(["rev-parse", "--verify", "--quiet", `${RULE_FROM}^{commit}`]) !== undefined;

describe.skipIf(!checkout)(`commit subjects are at most ${MAX} characters`, () => {
  it(`every commit since ${RULE_FROM}`, () => {
    const subjects = (git(["log", "--format=%s", `${RULE_FROM}^..HEAD`]) ?? "")
      .split("\n")
      .filter((subject) => subject !== "");
    expect(subjects.length).toBeGreaterThan(0);
    expect(subjects.filter((subject) => subject.length > MAX)).toEqual([]);
  });
});
