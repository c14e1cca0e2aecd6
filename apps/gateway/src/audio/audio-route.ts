import { invalidRequest } from "@interlingua/errors";
import type { AuthenticatedToken } from "../auth/token-store.ts";
import type { RouteCandidate } from "../routing/model-router.ts";
import { routeForEndpoint } from "../routing/model-router.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { PROTOCOLS } from "../upstream/protocols.ts";
import { noChannelAvailable } from "../upstream/upstream-error.ts";

export type AudioEndpoint = "speech" | "transcriptions";

/**
 * The path of `endpoint` on a candidate's channel, or undefined when its protocol does not
 * declare the audio API (`Protocol.media.audio`): the registry says who speaks audio, not a name.
 */
export const audioPath = (candidate: RouteCandidate, endpoint: AudioEndpoint): string | undefined =>
  PROTOCOLS[candidate.channel.protocol].media?.audio?.[endpoint];

const speaksAudio = (candidate: RouteCandidate): boolean =>
  audioPath(candidate, "speech") !== undefined;

export interface AudioRoute {
  readonly gatewayModel: string;
  readonly candidates: RouteCandidate[];
}

/**
 * The channels that may serve an audio call, in attempt order. Audio has one wire, OpenAI's, so
 * only channels whose protocol declares it count: a model no channel serves is 404, one the catalogue keeps for
 * another endpoint (or served only over another protocol) is 400, one the key may not use 403
 * (thrown).
 */
export function resolveAudioRoute(
  services: GatewayServices,
  token: AuthenticatedToken,
  model: string,
  endpoint: AudioEndpoint,
): AudioRoute {
  const route = routeForEndpoint(services.router, token.models, model, endpoint);
  if (!route.candidates.some(speaksAudio)) {
    throw invalidRequest(`model ${model} has no channel that speaks the OpenAI audio API`, "model");
  }
  const candidates = services.router.plan(route).filter(speaksAudio);
  if (candidates.length === 0) throw noChannelAvailable();
  return { gatewayModel: route.gatewayModel, candidates };
}
