import { type GatewayError, isGatewayError } from "@interlingua/errors";

/** The 400 a call throws, or a failure if it does not throw one. */
export function rejection(call: () => unknown): GatewayError {
  try {
    call();
  } catch (error) {
    if (isGatewayError(error)) return error as GatewayError;
    throw error;
  }
  throw new Error("expected a 400 GatewayError");
}
