import { expect } from "vitest";
import type { UsageLogRow } from "../src/storage/store.ts";
import { eventuallyAsync, type Stack } from "./stack.ts";
import type { Json } from "./wire.ts";

// What a call left in the books, read after every queued charge is written (charges and usage
// rows are written in batches).

/** A user's usage log rows, newest first. */
export async function usageRows(stack: Stack, userId = "alice"): Promise<UsageLogRow[]> {
  const services = stack.gateway.services;
  await services.accounting!.flush();
  return (await services.store.queryLogs({ userId }, { offset: 0, limit: 1000 })).items;
}

/** The usage log rows of one request. */
export async function usageRowsOf(stack: Stack, requestId: string | null): Promise<UsageLogRow[]> {
  return (await usageRows(stack)).filter((row) => row.requestId === requestId);
}

/** The usage log rows of one request, waited for (bounded) until the first is written. */
export function loggedRowsOf(stack: Stack, requestId: string | null): Promise<UsageLogRow[]> {
  return eventuallyAsync(
    () => usageRowsOf(stack, requestId),
    (rows) => rows.length > 0,
  );
}

/** The usage row of one request, once written. */
export async function loggedRowOf(stack: Stack, requestId: string | null): Promise<UsageLogRow> {
  return (await loggedRowsOf(stack, requestId))[0]!;
}

/** A user's spent credits. */
export async function usedCreditsOf(stack: Stack, userId = "alice"): Promise<number> {
  await stack.gateway.services.accounting!.flush();
  return (await stack.gateway.services.store.getUser(userId))!.used;
}

/**
 * Each upstream fault fails its call with the mapped status and the standard error body, leaves
 * one usage row at 0 credits, and the user's credits end where they began (the call refunded).
 */
export async function expectFaultsRefunded(
  stack: Stack,
  faults: readonly (readonly [fault: string, status: number])[],
  call: (fault: string) => Promise<{ status: number; json: Json; requestId: string }>,
): Promise<void> {
  const before = await usedCreditsOf(stack);
  for (const [fault, status] of faults) {
    const reply = await call(fault);
    expect(reply.status).toBe(status);
    expect(reply.json.error).toMatchObject({ code: status, message: expect.any(String) });
    const rows = await usageRowsOf(stack, reply.requestId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status, credits: 0 });
  }
  expect(await usedCreditsOf(stack)).toBe(before);
}
