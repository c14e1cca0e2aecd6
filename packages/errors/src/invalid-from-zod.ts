import { en } from "zod/locales";
import { config } from "zod/mini";
import type * as z from "zod/v4/core";
import { badGateway, invalidRequest } from "./constructors.js";
import type { GatewayError } from "./gateway-error.js";

type Issue = z.$ZodIssue;

// zod/mini loads no locale, so its issues would read only "Invalid input". The English messages
// ("Invalid input: expected string, received number") are part of the wire: every parser imports
// this module before it parses, so the locale is set once here, at load (about 1 kB gzipped).
config(en());
/** A field path as zod reports it: `["messages", 2, "content", 0]`. */
export type FieldPath = readonly PropertyKey[];

/** How every endpoint words an absent field after its path: `model: field required`. */
export const FIELD_REQUIRED = "field required";

/** `["messages", 2, "content", 0]` -> `messages[2].content[0]`, the `param` style of the error bodies. */
export function formatFieldPath(path: FieldPath): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** A 400 naming one field, for rules a schema does not express: `<param>: <message>`. */
export function invalidField(path: FieldPath, message: string): GatewayError {
  const param = formatFieldPath(path);
  return invalidRequest(`${param}: ${message}`, param);
}

interface Found {
  path: FieldPath;
  message: string;
  typeMismatch: boolean;
}

const isMissing = (issue: Issue) =>
  issue.code === "invalid_type" && issue.message.endsWith("received undefined");

function describe(issue: Issue, path: FieldPath): Found {
  return {
    path,
    message: isMissing(issue) ? FIELD_REQUIRED : issue.message,
    typeMismatch: issue.code === "invalid_type" && !isMissing(issue),
  };
}

/** The values a failed union would have taken: its literals, or a discriminated union's tags. */
function allowedValues(issue: z.$ZodIssueInvalidUnion): unknown[] | undefined {
  const options = (issue as { options?: unknown[] }).options;
  if (options !== undefined) return options.filter((o) => o !== undefined && o !== null);
  const values: unknown[] = [];
  for (const branch of issue.errors) {
    for (const inner of branch) {
      if (inner.code !== "invalid_value" || inner.path.length > 0) return undefined;
      values.push(...inner.values);
    }
  }
  return values.length > 0 ? values : undefined;
}

/**
 * A union reports one issue list per branch; the branch the caller meant is the one that got
 * furthest: the deepest path, and at equal depth a value problem rather than a type mismatch
 * (a type mismatch usually just means "not this branch"). When no branch got past the field
 * itself, a union of literals says which values it takes, and a union with its own message keeps it.
 */
function mostSpecific(issue: Issue, prefix: FieldPath): Found {
  const here = [...prefix, ...issue.path];
  if (issue.code !== "invalid_union") return describe(issue, here);
  let best: Found | undefined;
  let bestScore = -1;
  for (const branch of issue.errors) {
    for (const inner of branch) {
      const found = mostSpecific(inner, here);
      const score = found.path.length * 2 + (found.typeMismatch ? 0 : 1);
      if (score > bestScore) {
        best = found;
        bestScore = score;
      }
    }
  }
  if (best !== undefined && best.path.length > here.length) return best;
  if (best?.message === FIELD_REQUIRED) return best;
  // A schema's own wording for the union says more than any one branch; zod's defaults do not.
  const own = issue.message !== ZOD_UNION_DEFAULT && !("options" in issue);
  if (own) return describe(issue, here);
  const allowed = allowedValues(issue);
  if (allowed !== undefined) {
    const list = allowed.map((value) => JSON.stringify(value)).join(", ");
    return { path: here, message: `must be one of ${list}`, typeMismatch: false };
  }
  return best ?? describe(issue, here);
}

const ZOD_UNION_DEFAULT = "Invalid input";

/**
 * One zod issue as `<param>: <message>` (`model: field required`), its most specific union
 * branch followed; an unknown field of a strict schema is named itself; an issue at the root says
 * `invalid <what>: <message>` and has no `param`. `at` prefixes the paths when the schema judged
 * a part of the body.
 */
export function formatZodIssue(
  issue: z.$ZodIssue,
  what = "request body",
  at: FieldPath = [],
): { message: string; param?: string } {
  if (issue.code === "unrecognized_keys") {
    const param = formatFieldPath([...at, ...issue.path, issue.keys[0] ?? ""]);
    return { message: `${param}: unknown field for ${what}`, param };
  }
  const { path, message } = mostSpecific(issue, at);
  if (path.length === 0) return { message: `invalid ${what}: ${message}` };
  const param = formatFieldPath(path);
  return { message: `${param}: ${message}`, param };
}

/** The one zod-failure-to-400 of every endpoint: its first issue (`formatZodIssue`). Never leaks a ZodError. */
export function invalidFromZod(
  error: z.$ZodError,
  what = "request body",
  at: FieldPath = [],
): GatewayError {
  const first = error.issues[0];
  if (first === undefined) return invalidRequest(`invalid ${what}`);
  const { message, param } = formatZodIssue(first, what, at);
  return invalidRequest(message, param);
}

/**
 * An upstream reply that does not fit its schema: an upstream fault (502 `bad_gateway`), never the
 * client's 400, naming the reply's field (`*.response.parse` of every codec).
 */
export function malformedReplyFromZod(
  error: z.$ZodError,
  what = "reply",
  at: FieldPath = [],
): GatewayError {
  const first = error.issues[0];
  if (first === undefined) return badGateway(`Upstream sent an invalid ${what}`);
  return badGateway(`Upstream sent an invalid ${what}: ${formatZodIssue(first, what, at).message}`);
}
