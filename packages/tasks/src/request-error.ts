import { type GatewayError, invalidRequest } from "@interlingua/errors";

/** A 400 invalid_request_error whose message starts with the field it names. */
export function fieldError(param: string, message: string): GatewayError {
  return invalidRequest(`${param}: ${message}`, param);
}

/** The body must be a JSON object before any field can be judged. */
export function requireObject(body: unknown, what: string): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalidRequest(`${what} must be a JSON object`);
  }
  return body as Record<string, unknown>;
}
