import type { Hono } from "hono";
import type { AppEnv } from "../contract/app-env.ts";
import type { GatewayServices } from "../services/gateway-services.ts";

/**
 * `GET /healthz`: the process is up and serving (no auth, no dependency touched: a liveness
 * probe must not restart a gateway because its database blinked). `GET /readyz`: ready for
 * traffic; 503 with the part that is not.
 */
export function mountHealthRoutes(app: Hono<AppEnv>, services: GatewayServices): void {
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    const report = (await services.readiness?.()) ?? { ready: true, checks: {} };
    c.header("cache-control", "no-store");
    return c.json(
      { status: report.ready ? "ready" : "not ready", checks: report.checks },
      report.ready ? 200 : 503,
    );
  });
}
