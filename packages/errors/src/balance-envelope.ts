import { zStrictObject } from "@interlingua/core-types";
import * as z from "zod/mini";
import type { GatewayError } from "./gateway-error.js";

/**
 * docs/api-reference.md's body for balance and user-balance application failures (a missing token or quota
 * record). Authentication and rate failures on the same paths use the standard body instead.
 */
export const balanceErrorBodySchema = zStrictObject({
  success: z.literal(false),
  message: z.string(),
});
export type BalanceErrorBody = z.infer<typeof balanceErrorBodySchema>;

export const renderBalanceError = (error: GatewayError | string): BalanceErrorBody => ({
  success: false,
  message: typeof error === "string" ? error : error.message,
});
