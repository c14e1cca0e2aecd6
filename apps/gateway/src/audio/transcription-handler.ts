import { openAsBlob } from "node:fs";
import { badGateway, FIELD_REQUIRED, invalidRequest } from "@interlingua/errors";
import {
  parseTranscriptionFields,
  parseVerboseTranscription,
  renderTranscription,
  renderTranscriptionFields,
  type TranscriptionOptions,
  transcriptionFieldsSchema,
} from "@interlingua/fmt-chat/media";
import type { Context } from "hono";
import { FormData } from "undici";
import type { KeyedEnv } from "../contract/app-env.ts";
import { checkUnknownFields } from "../contract/unknown-fields.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import type { AttemptRecord } from "../upstream/call-channel.ts";
import { readCappedText } from "../upstream/read-capped.ts";
import { type AudioCall, audioCall } from "./audio-call.ts";
import { billedSeconds, maxAudioSeconds, measureAudioSeconds } from "./audio-duration.ts";
import { resolveAudioRoute } from "./audio-route.ts";
import { callAudioUpstreams } from "./audio-upstream.ts";
import { openMediaAccount } from "./media-account.ts";
import { readAudioForm, type SpooledFile } from "./read-audio-form.ts";
import { ALLOWED_AUDIO_TYPES, type SniffedAudio, sniffAudio } from "./sniff-audio.ts";

/** The client's route; the upstream's path is what its protocol declares (`media.audio`). */
export const TRANSCRIPTIONS_PATH = "/v1/audio/transcriptions";

/** docs/api-reference.md: at most 25 MB of audio. */
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;
/**
 * How much of an oversized body is still read (and dropped) so its client gets a 413 answer
 * rather than a cut upload; a body declared or found larger than this is answered and cut.
 */
const MAX_DRAINED_BODY_BYTES = 2 * MAX_AUDIO_BYTES;
/** The most of an upstream's verbose_json read (hours of segments fit well within it). */
const MAX_TRANSCRIPT_BYTES = 16 * 1024 * 1024;
/** Upstream and file durations further apart than this are logged (billing uses the file's). */
const DURATION_TOLERANCE_SECONDS = 2;

/**
 * POST /v1/audio/transcriptions. The file is spooled to a temp file, its 25 MB cap checked while
 * reading, never whole in memory; the upstream answers verbose_json, rendered to the asked format.
 */
export function transcriptionHandler(services: GatewayServices) {
  return async (c: Context<KeyedEnv>): Promise<Response> => {
    const call = audioCall(services, c, "transcriptions");

    const form = await readAudioForm(c.req.raw, {
      fileBytes: MAX_AUDIO_BYTES,
      bodyBytes: MAX_DRAINED_BODY_BYTES,
    });
    if (!form.ok) {
      // The rest of the upload was not read: the answer closes the connection.
      if (form.cut) c.set("closeConnection", true);
      throw form.error;
    }
    const file = form.file;
    try {
      if (file === undefined) throw invalidRequest(`file: ${FIELD_REQUIRED}`, "file");
      const options = parseTranscriptionFields(form.fields);
      const unknown = checkUnknownFields(
        c.req.raw.headers,
        Object.keys(form.fields),
        transcriptionFieldsSchema.shape,
      );
      if (!unknown.ok) throw unknown.error;
      if (file.size === 0) throw invalidRequest("file: the file is empty", "file");
      const sniffed = await sniffAudio(file.path);
      if (!sniffed.ok) {
        throw invalidRequest(
          `file: unsupported file type${sniffed.detected === undefined ? "" : ` (${sniffed.detected})`}; supported: ${ALLOWED_AUDIO_TYPES}`,
          "file",
        );
      }
      const response = await transcribe(services, c, call, options, file, sniffed.type);
      if (response.ok) {
        for (const [name, value] of Object.entries(unknown.headers))
          response.headers.set(name, value);
      }
      return response;
    } finally {
      await file?.dispose();
    }
  };
}

async function transcribe(
  services: GatewayServices,
  c: Context<KeyedEnv>,
  call: AudioCall,
  options: TranscriptionOptions,
  file: SpooledFile,
  type: SniffedAudio,
): Promise<Response> {
  const token = c.get("token");
  const route = resolveAudioRoute(services, token, options.model, "transcriptions");

  const measured = await measureAudioSeconds(file.path, file.size);
  // The hold covers the file's duration, or the most its size can hold when it does not say.
  const account = await openMediaAccount(
    services,
    call.billing(token, options.model, route.gatewayModel),
    { minutes: (measured ?? maxAudioSeconds(file.size)) / 60 },
  );

  const attempts: AttemptRecord[] = [];
  const summary = { model: options.model, format: options.responseFormat, attempts };
  const signal = c.req.raw.signal;
  const result = await callAudioUpstreams(
    services,
    route.candidates,
    "transcriptions",
    async (candidate) => {
      const body = new FormData();
      for (const [name, value] of renderTranscriptionFields(options, candidate.upstreamModel)) {
        body.append(name, value);
      }
      // Read from disk as the request is sent; the name's extension is the sniffed type's.
      const audio = await openAsBlob(file.path, { type: type.mime });
      body.append("file", audio, `audio.${type.uploadExtension}`);
      return { headers: { accept: "application/json" }, body };
    },
    signal,
    attempts,
    String(token.id),
  );
  if (!result.ok) {
    account.refund({ status: result.error.status, error: result.error.message });
    return call.fail(result.error, summary);
  }
  const channel = result.reply.candidate.channel.name;
  const text = await readCappedText(result.reply.body, MAX_TRANSCRIPT_BYTES);
  let json: unknown;
  try {
    json = JSON.parse(text ?? "");
  } catch {
    json = undefined;
  }
  const verbose = parseVerboseTranscription(json);
  if (text === undefined || !verbose.ok) {
    // Nothing usable reached the client: the call is not charged.
    const error = badGateway("upstream sent a malformed transcription", {
      cause:
        text === undefined ? "unreadable or oversized body" : verbose.ok ? "" : verbose.message,
    });
    account.refund({ status: error.status, error: error.message, channel });
    return call.fail(error, { ...summary, channel });
  }

  const reported = verbose.value.duration;
  const seconds = billedSeconds(measured, reported, file.size);
  const credits = account.settle({ minutes: seconds / 60 }, { status: 200, channel });
  const disagree =
    measured !== undefined && Math.abs(reported - measured) > DURATION_TOLERANCE_SECONDS;
  call.log.info(
    {
      ...summary,
      channel,
      upstreamModel: result.reply.candidate.upstreamModel,
      type: type.detected,
      bytes: file.size,
      measuredSeconds: measured ?? null,
      reportedSeconds: reported,
      billedSeconds: seconds,
      ...(disagree ? { durationMismatch: true } : {}),
      credits,
      status: 200,
      ms: call.elapsed(),
    },
    "transcription completed",
  );
  const rendered = renderTranscription(verbose.value, options.responseFormat);
  return new Response(rendered.body, {
    status: 200,
    headers: { "content-type": rendered.contentType },
  });
}
