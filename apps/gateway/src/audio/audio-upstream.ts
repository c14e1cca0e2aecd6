import type { GatewayError } from "@interlingua/errors";
import type { Dispatcher, FormData } from "undici";
import type { RouteCandidate } from "../routing/model-router.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import {
  type AttemptRecord,
  type ChannelTry,
  callChannel,
  ERROR_BODY_LIMIT,
  requestChannel,
  type UpstreamBody,
} from "../upstream/call-channel.ts";
import { readCappedText } from "../upstream/read-capped.ts";
import { failureFromError, statusFailure } from "../upstream/upstream-failure.ts";
import { type AudioEndpoint, audioPath } from "./audio-route.ts";

/** What to send to one channel: built per attempt (the model id and key differ per channel). */
export interface AudioUpstreamRequest {
  readonly headers: Record<string, string>;
  /** JSON text, or a form (undici's, which streams its Blob parts, such as a file on disk). */
  readonly body: string | FormData;
}

export interface AudioReply {
  readonly candidate: RouteCandidate;
  readonly status: number;
  /** The reply's media type, as the upstream declared it. */
  readonly contentType: string | undefined;
  /** Open: the caller streams or reads it, and destroys it if it stops early (its slot frees then). */
  readonly body: UpstreamBody;
}

export type AudioUpstreamResult =
  | { ok: true; reply: AudioReply }
  | { ok: false; error: GatewayError; clientGone: boolean };

/**
 * An audio call over the model's channels (`callChannel`): the next channel only on a network
 * error, timeout or channel-fault status; other 4xx are the caller's and final.
 */
export async function callAudioUpstreams(
  services: GatewayServices,
  candidates: readonly RouteCandidate[],
  /** Which of the audio API's paths: each candidate's protocol declares it. */
  endpoint: AudioEndpoint,
  build: (candidate: RouteCandidate) => AudioUpstreamRequest | Promise<AudioUpstreamRequest>,
  signal: AbortSignal,
  attempts: AttemptRecord[],
  /** Who the call is for (the token id): one caller alone cannot open a circuit. */
  source: string,
): Promise<AudioUpstreamResult> {
  const result = await callChannel(
    { router: services.router, candidates, attempts, signal, source },
    {
      attempt: async (candidate, { traced }) => {
        const request = await build(candidate);
        // `resolveAudioRoute` keeps only channels whose protocol declares the audio API.
        const path = audioPath(candidate, endpoint) as string;
        return traced(() => send(services.agent, candidate, path, request, signal));
      },
    },
  );
  return result.ok ? { ok: true, reply: result.value } : result;
}

async function send(
  agent: Dispatcher,
  candidate: RouteCandidate,
  path: string,
  request: AudioUpstreamRequest,
  signal: AbortSignal,
): Promise<ChannelTry<AudioReply>> {
  let response: Dispatcher.ResponseData;
  try {
    // The client's signal stays on the call: its leaving also ends a body being relayed.
    response = await requestChannel(agent, candidate.channel, { path, ...request }, signal);
  } catch (error) {
    return { kind: "failed", failure: failureFromError(error, true) };
  }
  if (response.statusCode >= 200 && response.statusCode < 300) {
    const type = response.headers["content-type"];
    const contentType = Array.isArray(type) ? type[0] : type;
    const { statusCode: status, body } = response;
    return { kind: "ok", value: { candidate, status, body, contentType }, held: body };
  }
  const text = await readCappedText(response.body, ERROR_BODY_LIMIT);
  const failure = statusFailure(response.statusCode, response.headers, text ?? "");
  return { kind: "failed", failure };
}
