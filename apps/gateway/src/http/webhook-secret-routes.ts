import type { Context, Hono } from "hono";
import { authenticate } from "../auth/authenticate.ts";
import type { AuthenticatedToken } from "../auth/token-store.ts";
import type { AppEnv } from "../contract/app-env.ts";
import type { GatewayServices } from "../services/gateway-services.ts";

// The signing secret of the caller's webhooks (Standard Webhooks, `whsec_…`), in the management
// API's `{success, message, data}` envelope: read it (created on first use) or rotate it. After
// a rotation, pushes are signed with the new secret only.

type Ctx = Context<AppEnv>;

export function mountWebhookSecretRoutes(app: Hono<AppEnv>, services: GatewayServices): void {
  const route =
    (read: (token: AuthenticatedToken) => Promise<string>) =>
    async (c: Ctx): Promise<Response> => {
      const auth = await authenticate(services, "standard", c.req.raw.headers, new URL(c.req.url));
      if (!auth.ok) {
        if (auth.error.retryAfterSeconds !== undefined) {
          c.header("retry-after", String(auth.error.retryAfterSeconds));
        }
        const status = auth.error.status === 429 ? 429 : 401;
        return c.json({ success: false, message: auth.error.message, data: null }, status);
      }
      const secret = await read(auth.token);
      // A credential: no cache may keep it.
      c.header("cache-control", "no-store");
      return c.json({ success: true, message: "", data: { secret } });
    };

  app.get(
    "/api/webhook/secret",
    route((token) => services.store.webhooks.secret(token.userId)),
  );
  app.post(
    "/api/webhook/secret/rotate",
    route((token) => services.store.webhooks.rotateSecret(token.userId)),
  );
}
