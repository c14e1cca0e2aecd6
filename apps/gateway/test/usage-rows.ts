import type { UsageLogRow } from "../src/storage/store.ts";
import type { Stack } from "./stack.ts";

// What a call left in the books, read after every queued charge is written (charges and usage
// rows are written in batches).

/** A user's usage log rows, newest first. */
export async function usageRows(stack: Stack, userId = "alice"): Promise<UsageLogRow[]> {
  const services = stack.gateway.services;
  await services.accounting!.flush();
  return (await services.store.queryLogs({ userId }, { offset: 0, limit: 1000 })).items;
}

/** The usage log rows of one request. */
export async function usageRowsOf(stack: Stack, requestId: string): Promise<UsageLogRow[]> {
  return (await usageRows(stack)).filter((row) => row.requestId === requestId);
}

/** A user's spent credits. */
export async function usedCreditsOf(stack: Stack, userId = "alice"): Promise<number> {
  await stack.gateway.services.accounting!.flush();
  return (await stack.gateway.services.store.getUser(userId))!.used;
}
