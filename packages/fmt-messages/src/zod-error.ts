import { type GatewayError, invalidRequest } from "@interlingua/errors";
import type * as z from "zod";

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

/** `messages[2].content[0].source` — the param style OpenAI and Anthropic error bodies use. */
export function formatPath(path: Path): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

/** The union branch that got furthest: its first issue names the field the caller got wrong. */
function deepest(issue: Issue): { issue: Issue; path: Path } {
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    let best: { issue: Issue; path: Path } | undefined;
    for (const branch of issue.errors) {
      const first = branch[0];
      if (!first) continue;
      const inner = deepest(first);
      const candidate = { issue: inner.issue, path: [...issue.path, ...inner.path] };
      if (!best || candidate.path.length > best.path.length) best = candidate;
    }
    if (best) return best;
  }
  return { issue, path: issue.path };
}

/**
 * Turns a zod failure into the 400 the spec asks for: one message naming the field path, and the
 * path as `param`. Never leaks a ZodError.
 */
export function zodToInvalidRequest(error: z.ZodError, what: string): GatewayError {
  const first = error.issues[0];
  if (!first) return invalidRequest(`invalid ${what}`);
  const { issue, path } = deepest(first);
  if (path.length === 0) {
    return invalidRequest(`invalid ${what}: ${issue.message}`);
  }
  const param = formatPath(path);
  const missing = issue.code === "invalid_type" && issue.message.endsWith("received undefined");
  const message = missing ? `${param}: field required` : `${param}: ${issue.message}`;
  return invalidRequest(message, param);
}
