import { notFound } from "@interlingua/errors";
import { Hono } from "hono";
import type { AppEnv } from "../contract/app-env.ts";
import { newRequestId } from "../contract/client-contract.ts";
import { findListedModel, listModels } from "../models/list-models.ts";
import { observeRequests } from "../observe/observe-requests.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { mountAudioRoutes } from "./audio-routes.ts";
import { mountBalanceRoutes } from "./balance-routes.ts";
import { mountDashboardRoutes } from "./dashboard-routes.ts";
import { mountFileRoutes } from "./file-routes.ts";
import { type BodyGuards, requestGuards } from "./front-door.ts";
import { mountHealthRoutes } from "./health-routes.ts";
import { mountManagementRoutes } from "./management-routes.ts";
import { mountObservabilityRoutes } from "./observability-routes.ts";
import { redactOutbound } from "./redact-outbound.ts";
import { requestIdHeaders } from "./request-id-headers.ts";
import { requireKey } from "./require-key.ts";
import { mountResponseRoutes } from "./response-routes.ts";
import { onThrown, pathErrorResponse } from "./route-envelope.ts";
import { mountTaskRoutes } from "./task-routes.ts";
import { mountUploadRoutes } from "./upload-routes.ts";
import { mountWebhookSecretRoutes } from "./webhook-secret-routes.ts";

/**
 * Every route but the generation endpoints (the front door answers those, `front-door.ts`), on
 * web-standard Request/Response. `guards`: the body guards the front door shares (one in-flight
 * count for every body).
 */
export function createApp(services: GatewayServices, guards?: BodyGuards): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  // Outermost: the request's span and metrics see every answer (refusals, 404s, errors).
  if (services.metrics !== undefined || services.config.tracing.enabled) {
    app.use("*", observeRequests(services.metrics, services.config.tracing.enabled));
  }

  app.use("*", async (c, next) => {
    const requestId = newRequestId();
    c.set("requestId", requestId);
    await next();
    for (const name of requestIdHeaders(c.req.path)) c.res.headers.set(name, requestId);
  });

  // Inside the request id's middleware: every response, errors and streams included.
  app.use("*", redactOutbound(services.redactor));
  app.use("*", requestGuards(services, guards));

  // Every vendor's SDK lists models with its own credential header.
  const modelsKey = requireKey(services, { group: "any" });
  app.get("/v1/models", modelsKey, (c) =>
    c.json(listModels(services.router, c.get("token"), services.startedAt)),
  );
  app.get("/v1/models/:model", modelsKey, (c) => {
    const id = c.req.param("model");
    const model = findListedModel(services.router, c.get("token"), services.startedAt, id);
    if (model === undefined) throw notFound(`model ${id} does not exist or is not available`);
    return c.json(model);
  });

  mountBalanceRoutes(app, services);
  mountAudioRoutes(app, services);
  mountManagementRoutes(app, services);
  mountUploadRoutes(app, services);
  mountFileRoutes(app, services);
  mountTaskRoutes(app, services);
  mountResponseRoutes(app, services);
  mountWebhookSecretRoutes(app, services);
  mountHealthRoutes(app, services);
  mountObservabilityRoutes(app, services);
  mountDashboardRoutes(app);

  // In the envelope of the path: /api/* the management API's, /v1beta/* the native one.
  app.notFound((c) =>
    pathErrorResponse(
      c.req.path,
      notFound(`no route for ${c.req.method} ${c.req.path}`),
      c.get("requestId"),
    ),
  );

  // Every refusal a route throws, and every bug; a database outage is a 503 with Retry-After.
  app.onError(onThrown(services.log));

  return app;
}
