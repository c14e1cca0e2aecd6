import * as z from "zod/mini";

/**
 * The HTTP statuses of docs/api-reference.md's "Status and type pairs" table, in the table's order. Every
 * status the gateway itself answers with is one of these; the per-status tables are keyed by it
 * so the compiler proves each table has a row for every status.
 */
export const gatewayStatuses = [400, 401, 402, 403, 404, 413, 429, 500, 502, 503] as const;

export type GatewayStatus = (typeof gatewayStatuses)[number];

export const isGatewayStatus = (status: number): status is GatewayStatus =>
  (gatewayStatuses as readonly number[]).includes(status);

/** Any error status a body may carry, table row or not. */
export const errorStatusSchema = z.int().check(z.gte(400)).check(z.lte(599));

export const isErrorStatus = (status: unknown): status is number =>
  errorStatusSchema.safeParse(status).success;

/**
 * Reads a per-status table for any number. Tables are total over `GatewayStatus`; other statuses
 * (an upstream 504, a hand-built 418) fall through to the caller's class-based fallback.
 */
export const lookupStatus = <T>(table: Readonly<Record<GatewayStatus, T>>, status: number) =>
  isGatewayStatus(status) ? table[status] : undefined;

export const isClientErrorStatus = (status: number) => status >= 400 && status < 500;
