import type { BillingConfig } from "../config/config-schema.ts";

// Six decimals keep micro-dollar precision and hide binary-fraction noise (0.30000000000000004).
const DISPLAY_DECIMALS = 1e6;

/** Integer credits in the configured unit, for display only (money is summed as credits). */
export function toBillingUnit(credits: number, billing: BillingConfig): number {
  if (billing.unit === "Credits") return credits;
  return Math.round((credits / billing.credits_per_usd) * DISPLAY_DECIMALS) / DISPLAY_DECIMALS;
}
