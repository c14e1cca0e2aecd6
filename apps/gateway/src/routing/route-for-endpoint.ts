import {
  type GatewayError,
  invalidRequest,
  modelNotFound,
  permissionDenied,
} from "@interlingua/errors";
import { type Endpoint, findModel } from "../catalogue/model-catalogue.ts";
import type { ModelRoute, ModelRouter } from "./model-router.ts";

/**
 * The channels serving `model` for a caller on `endpoint`, or the refusal every endpoint gives
 * alike: 404 when no channel serves it, 403 when the key may not use it, 400 when the catalogue
 * keeps it for another endpoint. What a channel must speak is the caller's own rule.
 */
export function routeForEndpoint(
  router: ModelRouter,
  allowed: ReadonlySet<string> | undefined,
  model: string,
  endpoint: Endpoint,
): { ok: true; route: ModelRoute } | { ok: false; error: GatewayError } {
  const route = router.resolve(model);
  if (route === undefined) return { ok: false, error: modelNotFound(model) };
  if (allowed !== undefined && !allowed.has(model) && !allowed.has(route.gatewayModel)) {
    return { ok: false, error: permissionDenied(`this API key may not use model ${model}`) };
  }
  const entry = findModel(route.gatewayModel);
  if (entry !== undefined && !entry.endpoints.includes(endpoint)) {
    return {
      ok: false,
      error: invalidRequest(
        `model ${model} is a ${entry.kind} model and is not served on this endpoint`,
        "model",
      ),
    };
  }
  return { ok: true, route };
}
