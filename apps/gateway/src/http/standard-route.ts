import type { Context } from "hono";
import type { KeyedEnv } from "../contract/app-env.ts";
import { ENVELOPE_HEADER, shouldWrap } from "../contract/client-contract.ts";
import type { GatewayServices } from "../services/gateway-services.ts";

// The shape the task and stored-response routes share: behind `requireKey`, refusals thrown as
// GatewayErrors (answered in the standard envelope by the app's error handler), replies wrapped.

export type Ctx = Context<KeyedEnv>;

/** `data` wrapped as `{code: 200, data}` under the spec envelope, alone under `bare`. */
export const standardReply =
  (services: GatewayServices) =>
  (c: Ctx, data: unknown): Response => {
    const wrap = shouldWrap(true, services.config.envelope, c.req.header(ENVELOPE_HEADER) ?? null);
    return c.json(wrap ? { code: 200, data } : data);
  };
