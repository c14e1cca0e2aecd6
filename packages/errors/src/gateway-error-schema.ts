// Apart from gateway-error.ts, whose helpers every codec calls: a bundler drops a module none of
// whose exports is used, but never a top-level schema call in one it keeps.
import { upstreamProtocolSchema, zObject } from "@interlingua/core-types";
import * as z from "zod/mini";

/** What the upstream really sent, for logs only: it is never rendered to a client. */
export const upstreamDiagnosticsSchema = zObject({
  protocol: upstreamProtocolSchema,
  status: z.number(),
  body: z.exactOptional(z.unknown()),
});
export type UpstreamDiagnostics = z.infer<typeof upstreamDiagnosticsSchema>;

/** The public fields of a GatewayError: what `toJSON` returns and renderers read. */
export const gatewayErrorFieldsSchema = zObject({
  status: z.int().check(z.gte(400)).check(z.lte(599)),
  type: z.string().check(z.minLength(1)),
  message: z.string(),
  /** A machine code such as `model_not_found`; the standard body's integer code is the status. */
  code: z.exactOptional(z.string()),
  param: z.exactOptional(z.string()),
  retryAfterSeconds: z.exactOptional(z.number().check(z.nonnegative())),
});
export type GatewayErrorFields = z.infer<typeof gatewayErrorFieldsSchema>;
