import type { UpstreamProtocol } from "@interlingua/core-types";
import { modelNotFound } from "@interlingua/errors";
import type { AuthenticatedToken } from "../auth/token-store.ts";
import type { RouteCandidate } from "../routing/model-router.ts";
import { routeForEndpoint } from "../routing/route-for-endpoint.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import type { JobKind } from "../storage/task-record.ts";

/** Which job a channel of each protocol runs for each kind of task model. */
const JOBS: Record<"video" | "image", Partial<Record<UpstreamProtocol, JobKind>>> = {
  video: { gemini: "veo" },
  image: { openai: "openai-images", gemini: "gemini-images" },
};

export interface TaskRoute {
  readonly gatewayModel: string;
  readonly candidate: RouteCandidate;
  readonly job: JobKind;
}

/**
 * Routed like every model, but only to channels whose protocol can carry the task (Veo on Gemini;
 * images on OpenAI or Gemini). 404 when none serves it, 403 when the key may not use it, 400 when
 * the catalogue keeps it for another endpoint (thrown).
 */
export function routeTaskModel(
  services: GatewayServices,
  token: AuthenticatedToken,
  model: string,
  kind: "video" | "image",
  endpoint: "videos" | "remix" | "images",
  preferChannel?: string,
): TaskRoute {
  const route = routeForEndpoint(services.router, token.models, model, endpoint);
  const usable = (c: RouteCandidate) => JOBS[kind][c.channel.protocol] !== undefined;
  const planned = services.router.plan(route).filter(usable);
  const preferred = planned.find((c) => c.channel.name === preferChannel);
  const candidate = preferred ?? planned[0] ?? route.candidates.find(usable);
  if (candidate === undefined) throw modelNotFound(model);
  const job = JOBS[kind][candidate.channel.protocol] as JobKind;
  return { gatewayModel: route.gatewayModel, candidate, job };
}

/** A Gemini channel for a video model, without a caller's token (the official fallback). */
export function fallbackVideoRoute(
  services: GatewayServices,
  model: string,
): RouteCandidate | undefined {
  const route = services.router.resolve(model);
  if (route === undefined) return undefined;
  const usable = (c: RouteCandidate) => JOBS.video[c.channel.protocol] !== undefined;
  return services.router.plan(route).find(usable) ?? route.candidates.find(usable);
}

/**
 * The channel a stored task runs on: the one it was routed to (an operation lives there), or,
 * when that channel left the config, another of the same protocol serving the model.
 */
export function channelForTask(
  services: GatewayServices,
  gatewayModel: string,
  channel: string | undefined,
  protocol: UpstreamProtocol,
): RouteCandidate | undefined {
  for (const model of [gatewayModel, `${gatewayModel}-official`]) {
    const route = services.router.resolve(model);
    const own = route?.candidates.find((c) => c.channel.name === channel);
    if (own !== undefined) return own;
  }
  const route = services.router.resolve(gatewayModel);
  if (route === undefined) return undefined;
  const same = (c: RouteCandidate) => c.channel.protocol === protocol;
  return services.router.plan(route).find(same) ?? route.candidates.find(same);
}
