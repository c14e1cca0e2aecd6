import { badGateway, invalidRequest } from "@interlingua/errors";
import {
  isSpeechAudio,
  parseSpeechRequest,
  renderSpeechRequest,
  SPEECH_CONTENT_TYPES,
  SPEECH_FORMATS,
  speechRequestSchema,
} from "@interlingua/fmt-chat/media";
import type { Context } from "hono";
import type { KeyedEnv } from "../contract/app-env.ts";
import { readJsonObject } from "../contract/client-contract.ts";
import { checkUnknownFields } from "../contract/unknown-fields.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import type { AttemptRecord } from "../upstream/call-channel.ts";
import { discardBody } from "../upstream/discard-body.ts";
import { readFirstChunk } from "../upstream/read-first-chunk.ts";
import { audioCall } from "./audio-call.ts";
import { resolveAudioRoute } from "./audio-route.ts";
import { callAudioUpstreams } from "./audio-upstream.ts";
import { openMediaAccount } from "./media-account.ts";
import { relayAudio } from "./relay-audio.ts";

/** The client's route; the upstream's path is what its protocol declares (`media.audio`). */
export const SPEECH_PATH = "/v1/audio/speech";

/**
 * POST /v1/audio/speech: held up front, charged per input character only once the upstream
 * answers (refunded if none does); the audio is streamed to the client as it arrives.
 */
export function speechHandler(services: GatewayServices) {
  return async (c: Context<KeyedEnv>): Promise<Response> => {
    const call = audioCall(services, c, "speech");
    const token = c.get("token");

    const body = await readJsonObject(c.req.raw, services.config.limits.max_body_bytes);
    const speech = parseSpeechRequest(body);
    const fields = checkUnknownFields(
      c.req.raw.headers,
      Object.keys(body),
      speechRequestSchema.shape,
    );
    if (!fields.ok) throw fields.error;

    const route = resolveAudioRoute(services, token, speech.model, "speech");
    // Only channels that produce the format asked for; none: a 400 naming what they produce.
    const candidates = route.candidates.filter(
      (candidate) => candidate.channel.speechFormats?.has(speech.responseFormat) ?? true,
    );
    if (candidates.length === 0) {
      const offered = new Set(
        route.candidates.flatMap((c) => [...(c.channel.speechFormats ?? [])]),
      );
      throw invalidRequest(
        `response_format: ${speech.responseFormat} is not available for ${speech.model}; its channels produce ${SPEECH_FORMATS.filter((f) => offered.has(f)).join(", ")}`,
        "response_format",
      );
    }
    const consumed = { characters: speech.characters };
    const account = await openMediaAccount(
      services,
      call.billing(token, speech.model, route.gatewayModel),
      consumed,
    );

    const attempts: AttemptRecord[] = [];
    const result = await callAudioUpstreams(
      services,
      candidates,
      "speech",
      (candidate) => ({
        headers: { "content-type": "application/json", accept: "audio/*" },
        body: JSON.stringify(renderSpeechRequest(speech, candidate.upstreamModel)),
      }),
      c.req.raw.signal,
      attempts,
      String(token.id),
    );
    if (!result.ok) {
      account.refund({ status: result.error.status, error: result.error.message });
      return call.fail(result.error, { model: speech.model, attempts });
    }

    // A 2xx that is not audio of the asked format (an HTML page, a JSON echo of the request and
    // its key) is an upstream fault: never relayed, never charged.
    const reply = result.reply;
    const started = await readFirstChunk(reply.body);
    if (
      !started.ok ||
      !isSpeechAudio(speech.responseFormat, started.body.first, reply.contentType)
    ) {
      discardBody(reply.body);
      const error = badGateway(
        started.ok
          ? `the upstream's reply is not ${speech.responseFormat} audio`
          : "the upstream sent no audio",
      );
      account.refund({ status: error.status, error: error.message });
      return call.fail(error, {
        model: speech.model,
        channel: reply.candidate.channel.name,
        contentType: reply.contentType,
        attempts,
      });
    }

    // The upstream has made (and charges for) the audio: the call is charged now, whether or
    // not the client then reads all of it.
    const channel = result.reply.candidate.channel.name;
    const credits = account.settle(consumed, { status: 200, channel });
    const summary = {
      model: speech.model,
      channel,
      upstreamModel: result.reply.candidate.upstreamModel,
      format: speech.responseFormat,
      characters: speech.characters,
      credits,
      attempts,
    };
    const audio = relayAudio(
      started.body.rest as typeof reply.body,
      (end) =>
        call.log.info({ ...summary, status: 200, ...end, ms: call.elapsed() }, "speech streamed"),
      started.body.first,
    );
    return new Response(audio, {
      status: 200,
      headers: { "content-type": SPEECH_CONTENT_TYPES[speech.responseFormat], ...fields.headers },
    });
  };
}
