import { type GatewayError, invalidRequest } from "@interlingua/errors";
import type * as z from "zod";

/** `image_urls[2].url` — the param style of OpenAI error bodies. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

/** A 400 invalid_request_error whose message starts with the field it names. */
export function fieldError(param: string, message: string): GatewayError {
  return invalidRequest(`${param}: ${message}`, param);
}

/**
 * A zod failure -> the 400 SPEC asks for, naming the field. An unknown field (strict schemas) is
 * named itself; a missing one says so. Never leaks a ZodError.
 */
export function zodToInvalidRequest(error: z.ZodError, what: string): GatewayError {
  const issue = error.issues[0];
  if (!issue) return invalidRequest(`invalid ${what}`);
  if (issue.code === "unrecognized_keys") {
    const param = formatPath([...issue.path, issue.keys[0] ?? ""]);
    return fieldError(param, `unknown field for ${what}`);
  }
  if (issue.path.length === 0) return invalidRequest(`invalid ${what}: ${issue.message}`);
  const param = formatPath(issue.path);
  const missing = issue.code === "invalid_type" && issue.message.endsWith("received undefined");
  return fieldError(param, missing ? "field required" : issue.message);
}

/** The body must be a JSON object before any field can be judged. */
export function requireObject(body: unknown, what: string): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalidRequest(`${what} must be a JSON object`);
  }
  return body as Record<string, unknown>;
}
