import { type GatewayError, invalidRequest } from "@interlingua/errors";
import type * as z from "zod";

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

/** `["messages", 2, "content", 0]` -> `messages[2].content[0]`, the way OpenAI names `param`. */
export function formatChatPath(path: Path): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

/**
 * A union reports one issue list per branch. The branch the caller meant is the one that got
 * furthest: the deepest path, and at equal depth a value problem rather than a type mismatch
 * (a type mismatch usually just means "not this branch").
 */
function mostSpecific(issue: Issue, prefix: Path): { path: Path; issue: Issue } {
  const here = [...prefix, ...issue.path];
  if (issue.code !== "invalid_union" || issue.errors.length === 0) return { path: here, issue };
  let best: Issue | undefined;
  let bestScore = -1;
  for (const branch of issue.errors) {
    const first = branch[0];
    if (!first) continue;
    const score = first.path.length * 2 + (first.code === "invalid_type" ? 0 : 1);
    if (score > bestScore) {
      best = first;
      bestScore = score;
    }
  }
  return best ? mostSpecific(best, here) : { path: here, issue };
}

const describe = (issue: Issue): string =>
  issue.code === "invalid_type" && issue.message.endsWith("received undefined")
    ? "is required"
    : issue.message;

/** The first schema issue as the spec's 400: the message and `param` name the field path. */
export function invalidChatInput(error: z.ZodError, what: string): GatewayError {
  const first = error.issues[0];
  if (!first) return invalidRequest(`Invalid ${what}`);
  const { path, issue } = mostSpecific(first, []);
  const param = formatChatPath(path);
  if (param === "") return invalidRequest(`Invalid ${what}: ${describe(issue)}`);
  return invalidRequest(`Invalid ${what}: ${param}: ${describe(issue)}`, param);
}

/** A refusal of one field the schema accepted but the converter cannot carry. */
export function invalidChatField(path: Path, message: string): GatewayError {
  const param = formatChatPath(path);
  return invalidRequest(`${param}: ${message}`, param);
}
