import type { BillingConfig } from "../config/config-schema.ts";
import type { TokenRow, UserRow } from "../storage/store.ts";
import { toBillingUnit } from "./money.ts";

/** SPEC.md "Token balance": -1 for both remaining fields of an unlimited token. */
export interface TokenBalance {
  success: true;
  remain_balance: number;
  remain_credits: number;
  used_balance: number;
  used_credits: number;
  unlimited_quota: boolean;
}

/**
 * SPEC.md "User balance" (used_credits is typed float there; credits are whole numbers here).
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

// What is left is what can still be spent: calls in flight hold part of the quota.
const remaining = (row: { quota: number; used: number; reserved: number }) =>
  row.quota - row.used - row.reserved;

export function tokenBalance(row: TokenRow, billing: BillingConfig): TokenBalance {
  const left = remaining(row);
  return {
    success: true,
    remain_balance: row.unlimited ? -1 : toBillingUnit(left, billing),
    remain_credits: row.unlimited ? -1 : left,
    used_balance: toBillingUnit(row.used, billing),
    used_credits: row.used,
    unlimited_quota: row.unlimited,
  };
}

export function userBalance(row: UserRow, billing: BillingConfig): UserBalance {
  const left = remaining(row);
  return {
    success: true,
    remain_balance: row.unlimited ? -1 : toBillingUnit(left, billing),
    remain_credits: row.unlimited ? -1 : left,
    used_balance: toBillingUnit(row.used, billing),
    used_credits: row.used,
  };
}
