import { type GatewayError, invalidRequest, notFound, toGatewayError } from "@interlingua/errors";
import { pageItems } from "@interlingua/fmt-responses";
import type { Context, Hono } from "hono";
import { authenticate } from "../auth/authenticate.ts";
import type { AuthenticatedToken } from "../auth/token-store.ts";
import type { AppEnv } from "../contract/app-env.ts";
import { ENVELOPE_HEADER, shouldWrap } from "../contract/envelope.ts";
import { errorResponse } from "../contract/error-response.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { OPEN_STATUSES, type StoredResponseRow } from "../storage/response-store.ts";
import { cancelBackground } from "./background-response.ts";

type Ctx = Context<AppEnv>;

/** Thrown inside a handler to answer with this error (standard envelope). */
class Refusal extends Error {
  readonly error: GatewayError;

  constructor(error: GatewayError) {
    super(error.message);
    this.error = error;
  }
}

const MAX_LIMIT = 100;
const DEFAULT_LIMIT = 20;

/**
 * OpenAI's endpoints of a stored response (issue 25): `GET /v1/responses/{id}`, `DELETE` it,
 * `GET …/input_items` (paged as OpenAI pages: `after`, `limit` 1-100, `order` desc by default)
 * and `POST …/cancel` (a background response). Every read is the caller's own: another user's
 * id is a 404, like one that never existed or expired. Bodies are OpenAI's, wrapped as
 * `{code: 200, data}` under the spec envelope like the rest of `/v1/responses`.
 */
export function mountResponseRoutes(app: Hono<AppEnv>, services: GatewayServices): void {
  const handler =
    (name: string, run: (c: Ctx, token: AuthenticatedToken) => Promise<Response>) =>
    async (c: Ctx): Promise<Response> => {
      const requestId = c.get("requestId");
      try {
        const auth = await authenticate(
          services,
          "standard",
          c.req.raw.headers,
          new URL(c.req.url),
        );
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
          "stored response request refused",
        );
        return errorResponse("standard", refusal, requestId);
      }
    };

  const reply = (c: Ctx, data: unknown): Response => {
    const wrap = shouldWrap(true, services.config.envelope, c.req.header(ENVELOPE_HEADER) ?? null);
    return c.json(wrap ? { code: 200, data } : data);
  };

  const owned = async (c: Ctx, token: AuthenticatedToken): Promise<StoredResponseRow> => {
    const id = c.req.param("id") ?? "";
    const row = await services.store.responses.get(id, token.userId, services.now());
    if (row === undefined) throw new Refusal(notFound(`Response with id '${id}' not found.`));
    return row;
  };

  app.get(
    "/v1/responses/:id",
    handler("responses.retrieve", async (c, token) => {
      if (c.req.query("stream") === "true") {
        throw new Refusal(
          invalidRequest(
            "stream: a stored response is read whole here; poll it until it has finished",
            "stream",
          ),
        );
      }
      return reply(c, (await owned(c, token)).body);
    }),
  );

  app.delete(
    "/v1/responses/:id",
    handler("responses.delete", async (c, token) => {
      const row = await owned(c, token);
      // A background response still running is stopped first: nothing is left to write it back.
      if (row.background && OPEN_STATUSES.includes(row.status)) {
        await cancelBackground(services, row);
      }
      if (!(await services.store.responses.delete(row.id, token.userId))) {
        throw new Refusal(notFound(`Response with id '${row.id}' not found.`));
      }
      return reply(c, { id: row.id, object: "response", deleted: true });
    }),
  );

  app.get(
    "/v1/responses/:id/input_items",
    handler("responses.input_items", async (c, token) => {
      const row = await owned(c, token);
      const limitText = c.req.query("limit");
      const limit = limitText === undefined ? DEFAULT_LIMIT : Number(limitText);
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
        throw new Refusal(
          invalidRequest(`limit: must be an integer from 1 to ${MAX_LIMIT}`, "limit"),
        );
      }
      const order = c.req.query("order") ?? "desc";
      if (order !== "asc" && order !== "desc") {
        throw new Refusal(invalidRequest('order: must be "asc" or "desc"', "order"));
      }
      const items = await services.store.responses.items(row.id, false);
      return reply(
        c,
        pageItems(
          items.map((entry) => entry.item),
          { after: c.req.query("after"), limit, order },
        ),
      );
    }),
  );

  app.post(
    "/v1/responses/:id/cancel",
    handler("responses.cancel", async (c, token) => {
      const row = await owned(c, token);
      if (!row.background) {
        throw new Refusal(
          invalidRequest(
            "Only responses created with background: true can be cancelled.",
            "response_id",
          ),
        );
      }
      if (!OPEN_STATUSES.includes(row.status)) return reply(c, row.body);
      return reply(c, await cancelBackground(services, row));
    }),
  );
}
