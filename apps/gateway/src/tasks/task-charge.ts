import { creditsFor } from "../billing/charge.ts";
import { toBillingUnit } from "../billing/money.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import type { HeldUnits } from "../storage/task-record.ts";

/** The most a task may cost: its units at the model's prices (free when the model has none). */
export function holdCredits(services: GatewayServices, model: string, units: HeldUnits): number {
  return creditsFor(services.prices.ratesOrFree(model), units);
}

/**
 * The real charge once results arrived: the held units scaled by the outputs delivered (an
 * upstream may return fewer samples than asked), never more than the hold.
 */
export function settledCharge(
  services: GatewayServices,
  model: string,
  units: HeldUnits,
  delivered: number,
  hold: number,
): { credits: number; cost: number } {
  const share = Math.min(1, delivered / Math.max(1, units.outputs));
  const scaled: HeldUnits = {
    outputs: delivered,
    ...(units.seconds === undefined ? {} : { seconds: units.seconds * share }),
    ...(units.requests === undefined ? {} : { requests: units.requests * share }),
  };
  const credits = Math.min(hold, creditsFor(services.prices.ratesOrFree(model), scaled));
  return { credits, cost: toBillingUnit(credits, services.config.billing) };
}
