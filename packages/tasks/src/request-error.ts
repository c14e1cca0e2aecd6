import { type GatewayError, invalidFromZod, invalidRequest } from "@interlingua/errors";
import type * as z from "zod";

/** A 400 invalid_request_error whose message starts with the field it names. */
export function fieldError(param: string, message: string): GatewayError {
  return invalidRequest(`${param}: ${message}`, param);
}

/**
 * A zod failure -> the 400 SPEC asks for, worded like every other endpoint (`model: field
 * required`): the one helper of @interlingua/errors, named by what was parsed.
 */
export function zodToInvalidRequest(error: z.ZodError, what: string): GatewayError {
  return invalidFromZod(error, what);
}

/** The body must be a JSON object before any field can be judged. */
export function requireObject(body: unknown, what: string): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalidRequest(`${what} must be a JSON object`);
  }
  return body as Record<string, unknown>;
}
