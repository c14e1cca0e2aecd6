import { renderBalanceError } from "@interlingua/errors";
import type { Context, Hono } from "hono";
import type { AuthenticatedToken } from "../auth/token-store.ts";
import { tokenBalance, userBalance } from "../billing/balances.ts";
import type { AppEnv, KeyedEnv } from "../contract/app-env.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { requireKey } from "./require-key.ts";

// docs/api-reference.md: the failure texts the balance endpoints begin with.
const TOKEN_MISSING = "Failed to get token information: the token record does not exist";
const USER_MISSING = "Failed to get user quota: the user quota record does not exist";

type Read = (services: GatewayServices, token: AuthenticatedToken) => Promise<object | string>;

const readTokenBalance: Read = async (services, token) => {
  const row = await services.store.getToken(token.id);
  return row === undefined ? TOKEN_MISSING : tokenBalance(row, services.config.billing);
};

const readUserBalance: Read = async (services, token) => {
  const row = await services.store.getUser(token.userId);
  return row === undefined ? USER_MISSING : userBalance(row, services.config.billing);
};

/**
 * `GET /v1/balance`, `/balance`, `/v1/user/balance`, `/user/balance`. Auth and rate failures
 * use the standard error envelope; a missing record is `{success: false, message}`.
 */
export function mountBalanceRoutes(app: Hono<AppEnv>, services: GatewayServices): void {
  const route = (read: Read) => async (c: Context<KeyedEnv>) => {
    const result = await read(services, c.get("token"));
    // Like the management API this mirrors, an application failure is a 200 whose body says so.
    if (typeof result === "string") return c.json(renderBalanceError(result));
    return c.json(result);
  };
  const keyed = requireKey(services);
  for (const path of ["/v1/balance", "/balance"]) app.get(path, keyed, route(readTokenBalance));
  for (const path of ["/v1/user/balance", "/user/balance"])
    app.get(path, keyed, route(readUserBalance));
}
