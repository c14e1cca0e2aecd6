import type { Hono } from "hono";
import type { AppEnv } from "../contract/app-env.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { DOCS_PAGE } from "./openapi/docs-page.ts";
import { apiRoutes, openApiDocument } from "./openapi/openapi-document.ts";

/**
 * `GET /openapi.json` and `GET /docs` (public: the API's shape is no secret), and `GET /metrics`
 * (or `metrics.path`) when metrics are on. The document is built once, on its first request.
 */
export function mountObservabilityRoutes(app: Hono<AppEnv>, services: GatewayServices): void {
  const metrics = services.metrics;
  const metricsPath = metrics === undefined ? undefined : services.config.metrics.path;
  let document: string | undefined;
  app.get("/openapi.json", (c) => {
    document ??= JSON.stringify(openApiDocument(apiRoutes(metricsPath)));
    return c.body(document, 200, { "content-type": "application/json" });
  });
  app.get("/docs", (c) => c.html(DOCS_PAGE));
  if (metrics === undefined || metricsPath === undefined) return;
  app.get(metricsPath, async (c) => {
    const { contentType, body } = await metrics.render();
    return c.body(body, 200, { "content-type": contentType, "cache-control": "no-store" });
  });
}
