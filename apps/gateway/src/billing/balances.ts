import type { BillingConfig } from "../config/config-schema.ts";
import type { TokenRow, UserRow } from "../storage/store.ts";
import { toBillingUnit } from "./money.ts";

/**
 * docs/api-reference.md "User balance" (used_credits is typed float there; credits are whole numbers here).
 * An unlimited user answers -1 for both remaining fields, like an unlimited token: its quota
 * bounds nothing, so quota - used would be a meaningless (often negative) number.
 */
export interface UserBalance {
  success: true;
  remain_balance: number;
  remain_credits: number;
  used_balance: number;
  used_credits: number;
}

/** docs/api-reference.md "Token balance": the same fields, -1 for both remaining fields of an unlimited token. */
export interface TokenBalance extends UserBalance {
  unlimited_quota: boolean;
}

/**
 * What a token or user can still spend: calls in flight hold part of the quota. The one
 * definition of "remaining" (balances, the management API's `remain_quota`, the grant rules).
 */
export const remainingCredits = (row: Pick<UserRow, "quota" | "used" | "reserved">): number =>
  row.quota - row.used - row.reserved;

/** A user's balance; a token's is the same plus `unlimited_quota` (a token row fits here too). */
export function userBalance(
  row: Pick<UserRow, "quota" | "used" | "reserved" | "unlimited">,
  billing: BillingConfig,
): UserBalance {
  const left = remainingCredits(row);
  return {
    success: true,
    remain_balance: row.unlimited ? -1 : toBillingUnit(left, billing),
    remain_credits: row.unlimited ? -1 : left,
    used_balance: toBillingUnit(row.used, billing),
    used_credits: row.used,
  };
}

export function tokenBalance(row: TokenRow, billing: BillingConfig): TokenBalance {
  return { ...userBalance(row, billing), unlimited_quota: row.unlimited };
}
