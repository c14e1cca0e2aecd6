import { type GatewayError, invalidRequest } from "@interlingua/errors";
import type * as z from "zod";

/** `contents[0].parts[1].text`: the path style of the 400 messages. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

/** The first zod issue as a 400 naming its field, never a raw ZodError. */
export function invalidFromZod(error: z.ZodError, what: string): GatewayError {
  const issue = error.issues[0];
  if (!issue) return invalidRequest(`${what}: invalid`);
  const param = formatPath(issue.path);
  const message = param === "" ? `${what}: ${issue.message}` : `${param}: ${issue.message}`;
  return param === "" ? invalidRequest(message) : invalidRequest(message, param);
}

/** A 400 for a rule zod does not express, naming the field. */
export function invalidAt(path: ReadonlyArray<PropertyKey>, message: string): GatewayError {
  const param = formatPath(path);
  return invalidRequest(`${param}: ${message}`, param);
}
