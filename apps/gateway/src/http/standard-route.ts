import { type GatewayError, toGatewayError } from "@interlingua/errors";
import type { Context } from "hono";
import { authenticate } from "../auth/authenticate.ts";
import type { AuthenticatedToken } from "../auth/token-store.ts";
import type { AppEnv } from "../contract/app-env.ts";
import { ENVELOPE_HEADER, shouldWrap } from "../contract/envelope.ts";
import { errorResponse } from "../contract/error-response.ts";
import type { GatewayServices } from "../services/gateway-services.ts";

// The shape the task and stored-response routes share: authenticate with the standard
// credentials, run, and turn anything thrown into the standard envelope, logged once.

export type Ctx = Context<AppEnv>;

/** Thrown inside a handler to answer with this error (standard envelope). */
export class Refusal extends Error {
  readonly error: GatewayError;

  constructor(error: GatewayError) {
    super(error.message);
    this.error = error;
  }
}

export type AuthedRun = (c: Ctx, token: AuthenticatedToken) => Promise<Response>;

/** Wraps route bodies of one family; `refused` is the log message of a refusal. */
export function standardRoutes(services: GatewayServices, refused: string) {
  const handler =
    (name: string, run: AuthedRun) =>
    async (c: Ctx): Promise<Response> => {
      const requestId = c.get("requestId");
      try {
        const url = new URL(c.req.url);
        const auth = await authenticate(services, "standard", c.req.raw.headers, url);
        if (!auth.ok) throw new Refusal(auth.error);
        return await run(c, auth.token);
      } catch (error) {
        const refusal = error instanceof Refusal ? error.error : toGatewayError(error);
        const level = refusal.status >= 500 ? "error" : "info";
        services.log[level](
          {
            requestId,
            endpoint: name,
            status: refusal.status,
            error: refusal.message,
            ...(refusal.status >= 500 ? { err: error } : {}),
          },
          refused,
        );
        return errorResponse("standard", refusal, requestId);
      }
    };

  /** `data` wrapped as `{code: 200, data}` under the spec envelope, alone under `bare`. */
  const reply = (c: Ctx, data: unknown): Response => {
    const wrap = shouldWrap(true, services.config.envelope, c.req.header(ENVELOPE_HEADER) ?? null);
    return c.json(wrap ? { code: 200, data } : data);
  };

  return { handler, reply };
}
