import { invalidRequest, notFound } from "@interlingua/errors";
import { pageItems } from "@interlingua/fmt-responses/tables";
import type { Hono } from "hono";
import type { AuthenticatedToken } from "../auth/token-store.ts";
import type { AppEnv } from "../contract/app-env.ts";
import { followResponse } from "../responses/response-events.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { OPEN_STATUSES, type StoredResponseRow } from "../storage/response-store.ts";
import { cancelBackground } from "./background-response.ts";
import { requireKey } from "./require-key.ts";
import { type Ctx, standardReply } from "./standard-route.ts";

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
  const reply = standardReply(services);
  const keyed = requireKey(services);

  const owned = async (c: Ctx, token: AuthenticatedToken): Promise<StoredResponseRow> => {
    const id = c.req.param("id") ?? "";
    const row = await services.store.responses.get(id, token.userId, services.now());
    if (row === undefined) throw notFound(`Response with id '${id}' not found.`);
    return row;
  };

  app.get("/v1/responses/:id", keyed, async (c) => {
    const token = c.get("token");
    const row = await owned(c, token);
    if (c.req.query("stream") !== "true") return reply(c, row.body);
    // OpenAI streams (and resumes) only a background response created with `stream: true`.
    if (!row.streamed) {
      throw invalidRequest(
        "stream: only a response created with background: true and stream: true can be streamed; read it whole without stream",
        "stream",
      );
    }
    const text = c.req.query("starting_after");
    const after = text === undefined || text === "" ? -1 : Number(text);
    if (!Number.isInteger(after) || after < -1) {
      throw invalidRequest("starting_after: must be a non-negative integer", "starting_after");
    }
    return followResponse(services, services.responseEvents, row.id, token.userId, after);
  });

  app.delete("/v1/responses/:id", keyed, async (c) => {
    const token = c.get("token");
    const row = await owned(c, token);
    // A background response still running is stopped first: nothing is left to write it back.
    if (row.background && OPEN_STATUSES.includes(row.status)) {
      await cancelBackground(services, row);
    }
    if (!(await services.store.responses.delete(row.id, token.userId))) {
      throw notFound(`Response with id '${row.id}' not found.`);
    }
    return reply(c, { id: row.id, object: "response", deleted: true });
  });

  app.get("/v1/responses/:id/input_items", keyed, async (c) => {
    const token = c.get("token");
    const row = await owned(c, token);
    const limitText = c.req.query("limit");
    const limit = limitText === undefined ? DEFAULT_LIMIT : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
      throw invalidRequest(`limit: must be an integer from 1 to ${MAX_LIMIT}`, "limit");
    }
    const order = c.req.query("order") ?? "desc";
    if (order !== "asc" && order !== "desc") {
      throw invalidRequest('order: must be "asc" or "desc"', "order");
    }
    const items = await services.store.responses.items(row.id, false);
    return reply(
      c,
      pageItems(
        items.map((entry) => entry.item),
        { after: c.req.query("after"), limit, order },
      ),
    );
  });

  app.post("/v1/responses/:id/cancel", keyed, async (c) => {
    const token = c.get("token");
    const row = await owned(c, token);
    if (!row.background) {
      throw invalidRequest(
        "Only responses created with background: true can be cancelled.",
        "response_id",
      );
    }
    if (!OPEN_STATUSES.includes(row.status)) return reply(c, row.body);
    return reply(c, await cancelBackground(services, row));
  });
}
