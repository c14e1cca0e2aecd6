import { isGatewayError } from "@interlingua/errors";
import { expect } from "vitest";

/** Runs `fn`, expecting a 400 invalid_request_error that names `param`; returns its message. */
export function expect400(fn: () => unknown, param: string | undefined): string {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, "expected a 400 to be thrown").toBeDefined();
  if (!isGatewayError(thrown)) throw thrown;
  expect(thrown.status).toBe(400);
  expect(thrown.type).toBe("invalid_request_error");
  expect(thrown.param).toBe(param);
  if (param !== undefined) expect(thrown.message.startsWith(`${param}: `)).toBe(true);
  return thrown.message;
}
