import type { Context, Hono } from "hono";
import type { AuthenticatedToken } from "../auth/token-store.ts";
import type { AppEnv, KeyedEnv } from "../contract/app-env.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { requireKey } from "./require-key.ts";

// The signing secret of the caller's webhooks (Standard Webhooks, `whsec_…`), in the management
// API's `{success, message, data}` envelope (refusals too, by path): read it (created on first
// use) or rotate it. After a rotation, pushes are signed with the new secret only.

type Ctx = Context<KeyedEnv>;

export function mountWebhookSecretRoutes(app: Hono<AppEnv>, services: GatewayServices): void {
  const route =
    (read: (token: AuthenticatedToken) => Promise<string>) =>
    async (c: Ctx): Promise<Response> => {
      const secret = await read(c.get("token"));
      // A credential: no cache may keep it.
      c.header("cache-control", "no-store");
      return c.json({ success: true, message: "", data: { secret } });
    };

  const keyed = requireKey(services);
  app.get(
    "/api/webhook/secret",
    keyed,
    route((token) => services.store.webhooks.secret(token.userId)),
  );
  app.post(
    "/api/webhook/secret/rotate",
    keyed,
    route((token) => services.store.webhooks.rotateSecret(token.userId)),
  );
}
