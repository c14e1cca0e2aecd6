import { renderBalanceError } from "@interlingua/errors";
import type { Context, Hono } from "hono";
import type { AuthenticatedToken } from "../auth/token-store.ts";
import { tokenBalance, userBalance } from "../billing/balances.ts";
import type { AppEnv, KeyedEnv } from "../contract/app-env.ts";
import { requestLog } from "../log/request-log.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import {
  DATABASE_RETRY_AFTER_SECONDS,
  isDatabaseUnavailable,
} from "../storage/database-unavailable.ts";
import { requireKey } from "./require-key.ts";

// docs/api-reference.md: the failure texts the balance endpoints begin with.
const TOKEN_FAILED = "Failed to get token information";
const USER_FAILED = "Failed to get user quota";
const TOKEN_MISSING = `${TOKEN_FAILED}: the token record does not exist`;
const USER_MISSING = `${USER_FAILED}: the user quota record does not exist`;

type Read = (services: GatewayServices, token: AuthenticatedToken) => Promise<object | string>;

/** One balance resource: how it is read, and what its failure message begins with. */
interface Balance {
  read: Read;
  failed: string;
}

const TOKEN_BALANCE: Balance = {
  read: async (services, token) => {
    const row = await services.store.getToken(token.id);
    return row === undefined ? TOKEN_MISSING : tokenBalance(row, services.config.billing);
  },
  failed: TOKEN_FAILED,
};

const USER_BALANCE: Balance = {
  read: async (services, token) => {
    const row = await services.store.getUser(token.userId);
    return row === undefined ? USER_MISSING : userBalance(row, services.config.billing);
  },
  failed: USER_FAILED,
};

/**
 * `GET /v1/balance`, `/balance`, `/v1/user/balance`, `/user/balance`. Auth and rate failures
 * use the standard error envelope; a record that is missing or cannot be read is
 * `{success: false, message}`.
 */
export function mountBalanceRoutes(app: Hono<AppEnv>, services: GatewayServices): void {
  const route = (balance: Balance) => async (c: Context<KeyedEnv>) => {
    let result: object | string;
    try {
      result = await balance.read(services, c.get("token"));
    } catch (error) {
      return readFailed(c, services, error, balance.failed);
    }
    // Like the management API this mirrors, an application failure is a 200 whose body says so.
    if (typeof result === "string") return c.json(renderBalanceError(result));
    return c.json(result);
  };
  const keyed = requireKey(services);
  for (const path of ["/v1/balance", "/balance"]) app.get(path, keyed, route(TOKEN_BALANCE));
  for (const path of ["/v1/user/balance", "/user/balance"])
    app.get(path, keyed, route(USER_BALANCE));
}

/**
 * The record could not be read (database down, or a bug): still the balance failure body, as
 * the API reference gives it for a quota that "cannot be retrieved", not the standard error
 * body; an outage keeps its 503 and Retry-After. The driver's error goes to the log only.
 */
function readFailed(
  c: Context<KeyedEnv>,
  services: GatewayServices,
  error: unknown,
  prefix: string,
) {
  const outage = isDatabaseUnavailable(error);
  requestLog(services.log, { requestId: c.get("requestId") }).error(
    { err: error },
    "balance read failed",
  );
  if (outage) c.header("retry-after", String(DATABASE_RETRY_AFTER_SECONDS));
  const reason = outage ? "the database is unavailable; retry shortly" : "internal error";
  return c.json(renderBalanceError(`${prefix}: ${reason}`), outage ? 503 : 500);
}
