import type { MediaTaskKind } from "@interlingua/core-types";
import { modelNotFound } from "@interlingua/errors";
import type { AuthenticatedToken } from "../auth/token-store.ts";
import type { RouteCandidate } from "../routing/model-router.ts";
import { routeForEndpoint } from "../routing/model-router.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { JOB_KINDS, type JobKind } from "../storage/task-record.ts";
import { PROTOCOLS } from "../upstream/protocols.ts";

const isJobKind = (name: string): name is JobKind =>
  (JOB_KINDS as readonly string[]).includes(name);

/**
 * The job a candidate's channel runs for a kind of task: the one its protocol declares
 * (`Protocol.media.tasks`), if the gateway has it; undefined when the protocol cannot carry it.
 */
export function jobFor(candidate: RouteCandidate, kind: MediaTaskKind): JobKind | undefined {
  const name = PROTOCOLS[candidate.channel.protocol].media?.tasks?.[kind];
  return name !== undefined && isJobKind(name) ? name : undefined;
}

/** Whether a candidate's protocol declares `job` for some kind of task. */
const runsJob = (candidate: RouteCandidate, job: JobKind): boolean =>
  jobFor(candidate, "video") === job || jobFor(candidate, "image") === job;

export interface TaskRoute {
  readonly gatewayModel: string;
  readonly candidate: RouteCandidate;
  readonly job: JobKind;
}

/**
 * Routed like every model, but only to channels whose protocol declares a job for the task (Veo
 * on Gemini; images on OpenAI or Gemini). 404 when none serves it, 403 when the key may not use it, 400 when
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
  const usable = (c: RouteCandidate) => jobFor(c, kind) !== undefined;
  const planned = services.router.plan(route).filter(usable);
  const preferred = planned.find((c) => c.channel.name === preferChannel);
  const candidate = preferred ?? planned[0] ?? route.candidates.find(usable);
  if (candidate === undefined) throw modelNotFound(model);
  const job = jobFor(candidate, kind) as JobKind;
  return { gatewayModel: route.gatewayModel, candidate, job };
}

/** A channel that runs videos for a video model, without a caller's token (the official fallback). */
export function fallbackVideoRoute(
  services: GatewayServices,
  model: string,
): RouteCandidate | undefined {
  const route = services.router.resolve(model);
  if (route === undefined) return undefined;
  const usable = (c: RouteCandidate) => jobFor(c, "video") !== undefined;
  return services.router.plan(route).find(usable) ?? route.candidates.find(usable);
}

/**
 * The channel a stored task runs on: the one it was routed to (an operation lives there), or,
 * when that channel left the config, another serving the model whose protocol runs the same job.
 */
export function channelForTask(
  services: GatewayServices,
  gatewayModel: string,
  channel: string | undefined,
  job: JobKind,
): RouteCandidate | undefined {
  for (const model of [gatewayModel, `${gatewayModel}-official`]) {
    const route = services.router.resolve(model);
    const own = route?.candidates.find((c) => c.channel.name === channel);
    if (own !== undefined) return own;
  }
  const route = services.router.resolve(gatewayModel);
  if (route === undefined) return undefined;
  const same = (c: RouteCandidate) => runsJob(c, job);
  return services.router.plan(route).find(same) ?? route.candidates.find(same);
}
