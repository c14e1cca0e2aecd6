import { type GatewayError, invalidRequest } from "@interlingua/errors";
import type * as z from "zod";

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

/** `["input", 2, "content", 0]` -> `input[2].content[0]`, the way clients write field paths. */
export function formatPath(path: Path): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

/**
 * A union reports one issue list per branch. The branch that got furthest (the longest issue
 * path) is the one the client meant, so its first issue names the field; a value that matched no
 * branch at all keeps the union's own message.
 */
function mostSpecific(issue: Issue, prefix: Path): { path: Path; message: string } {
  if (issue.code === "invalid_union") {
    const here = [...prefix, ...issue.path];
    let best: Issue | undefined;
    let bestDepth = 0;
    for (const branch of issue.errors) {
      for (const inner of branch) {
        const depth = inner.path.length + (inner.code === "invalid_union" ? 1 : 0);
        if (depth > bestDepth) {
          best = inner;
          bestDepth = depth;
        }
      }
    }
    if (best) return mostSpecific(best, here);
    const options = (issue as { options?: unknown[] }).options;
    if (options) {
      const allowed = options.filter((o) => o !== undefined && o !== null);
      return {
        path: here,
        message: `must be one of ${allowed.map((o) => JSON.stringify(o)).join(", ")}`,
      };
    }
    return { path: here, message: issue.message };
  }
  const missing = issue.code === "invalid_type" && issue.message.endsWith("received undefined");
  return { path: [...prefix, ...issue.path], message: missing ? "is required" : issue.message };
}

/** The first schema issue as the spec's 400, its message and `param` naming the field path. */
export function invalidRequestFromZod(error: z.ZodError, prefix: Path = []): GatewayError {
  const first = error.issues[0];
  if (!first) return invalidRequest("Invalid request body");
  const { path, message } = mostSpecific(first, prefix);
  const param = formatPath(path);
  if (param === "") return invalidRequest(`Invalid request body: ${message}`);
  return invalidRequest(`${param}: ${message}`, param);
}
