import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./packages.js";

// Habits the tree keeps, checked where a checkout is at hand (a published tarball has no git).
// Commit subjects fit in 72 characters (detail goes in the body), from the commit that adopted
// the rule on; earlier history is what it is. The contract is cited as docs/api-reference.md,
// the repository's copy, never as SPEC.md, which a clone does not have.
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

describe.skipIf(!checkout)("habits of the tree", () => {
  it(`commit subjects since ${RULE_FROM} are at most ${MAX} characters`, () => {
    const subjects = (git(["log", "--format=%s", `${RULE_FROM}^..HEAD`]) ?? "")
      .split("\n")
      .filter((subject) => subject !== "");
    expect(subjects.length).toBeGreaterThan(0);
    expect(subjects.filter((subject) => subject.length > MAX)).toEqual([]);
  });

  it("nothing cites SPEC.md: the contract is docs/api-reference.md", () => {
    // git grep exits 1 when nothing matches: undefined here means no citation.
    const found = git([
      "grep",
      "-n",
      "SPEC\\.md",
      "--",
      ".",
      ":!fixtures",
      ":!docs/api-reference.md",
      ":!tests/conformance/src/habits.test.ts",
    ]);
    expect(found ?? "").toBe("");
  });
});
