import { invalidRequest, modelNotFound, permissionDenied } from "@interlingua/errors";
import { type Endpoint, findModel } from "../catalogue/model-catalogue.ts";
import type { ModelRoute, ModelRouter } from "./model-router.ts";

/**
 * The channels serving `model` for a caller on `endpoint`; otherwise the refusal every endpoint
 * throws alike: 404 when no channel serves it, 403 when the key may not use it, 400 when the catalogue
 * keeps it for another endpoint. What a channel must speak is the caller's own rule.
 */
export function routeForEndpoint(
  router: ModelRouter,
  allowed: ReadonlySet<string> | undefined,
  model: string,
  endpoint: Endpoint,
): ModelRoute {
  const route = router.resolve(model);
  if (route === undefined) throw modelNotFound(model);
  if (allowed !== undefined && !allowed.has(model) && !allowed.has(route.gatewayModel)) {
    throw permissionDenied(`this API key may not use model ${model}`);
  }
  const entry = findModel(route.gatewayModel);
  if (entry !== undefined && !entry.endpoints.includes(endpoint)) {
    throw invalidRequest(
      `model ${model} is a ${entry.kind} model and is not served on this endpoint`,
      "model",
    );
  }
  return route;
}
