import { zObject } from "@interlingua/core-types";
import {
  type GatewayError,
  invalidFromZod,
  invalidRequest,
  payloadTooLarge,
} from "@interlingua/errors";
import * as z from "zod/mini";

// OpenAI's `POST /v1/audio/speech` as docs/api-reference.md gives it: the five formats (and OpenAI's own
// default, mp3, which its SDKs ask for), the six voices, input and speed limits. The reply is
// binary audio; only the request is a JSON body.

export const SPEECH_VOICES = ["alloy", "echo", "fable", "onyx", "nova", "shimmer"] as const;
export type SpeechVoice = (typeof SPEECH_VOICES)[number];

export const SPEECH_FORMATS = ["wav", "opus", "aac", "flac", "pcm", "mp3"] as const;
export type SpeechFormat = (typeof SPEECH_FORMATS)[number];

/**
 * docs/api-reference.md marks `response_format` required yet calls wav "the listed default": an omitted format
 * is wav. OpenAI's own default (mp3) is accepted when named; the rendered upstream body always
 * names the format rather than leaving the upstream to pick its default.
 */
export const SPEECH_DEFAULT_FORMAT: SpeechFormat = "wav";

/** Characters are Unicode code points (what a reader counts), not UTF-16 units. */
export const SPEECH_MAX_INPUT_CHARS = 4096;
export const SPEECH_MIN_SPEED = 0.25;
export const SPEECH_MAX_SPEED = 4;
export const SPEECH_DEFAULT_SPEED = 1;

/**
 * The media type of each format's bytes. opus is an Ogg Opus file (RFC 7845: `audio/ogg`;
 * `audio/opus` names the RTP payload); pcm is raw 16-bit little-endian mono samples at 24 kHz.
 */
export const SPEECH_CONTENT_TYPES: Readonly<Record<SpeechFormat, string>> = {
  wav: "audio/wav",
  opus: "audio/ogg; codecs=opus",
  aac: "audio/aac",
  flac: "audio/flac",
  pcm: "audio/pcm",
  mp3: "audio/mpeg",
};

/** The client's body. Unknown fields are dropped (they are not forwarded either). */
export const speechRequestSchema = zObject({
  model: z.string().check(z.minLength(1)),
  input: z.string().check(z.minLength(1)),
  voice: z.enum(SPEECH_VOICES),
  response_format: z.exactOptional(z.enum(SPEECH_FORMATS)),
  speed: z.exactOptional(z.number().check(z.gte(SPEECH_MIN_SPEED)).check(z.lte(SPEECH_MAX_SPEED))),
});
export type SpeechRequestWire = z.infer<typeof speechRequestSchema>;

/** A validated speech request with its defaults applied. */
export interface SpeechRequest {
  readonly model: string;
  readonly input: string;
  readonly voice: SpeechVoice;
  readonly responseFormat: SpeechFormat;
  readonly speed: number;
  /** Code points of `input`: what the 4096 limit and per-character billing count. */
  readonly characters: number;
}

/** Unicode code points of a string (a surrogate pair is one character). */
export function countCharacters(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point: skip the low half.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/**
 * A client's body -> a speech request. Throws a GatewayError: 400 naming the field for a missing
 * or ill-typed field, an unknown voice or format, or a speed out of range; 413 (docs/api-reference.md's Errors
 * table) for input over 4096 characters.
 */
export function parseSpeechRequest(body: unknown): SpeechRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalidRequest("Invalid speech request: the body must be a JSON object");
  }
  const parsed = speechRequestSchema.safeParse(body);
  if (!parsed.success) throw invalidFromZod(parsed.error, "speech request");
  const wire = parsed.data;
  const characters = countCharacters(wire.input);
  if (characters > SPEECH_MAX_INPUT_CHARS) throw inputTooLong(characters);
  return {
    model: wire.model,
    input: wire.input,
    voice: wire.voice,
    responseFormat: wire.response_format ?? SPEECH_DEFAULT_FORMAT,
    speed: wire.speed ?? SPEECH_DEFAULT_SPEED,
    characters,
  };
}

const inputTooLong = (characters: number): GatewayError =>
  payloadTooLarge(
    `input: ${characters} characters is over the limit of ${SPEECH_MAX_INPUT_CHARS} characters`,
    { param: "input" },
  );

/** The upstream body: every field explicit, the upstream's model id in place of the client's. */
export function renderSpeechRequest(
  request: SpeechRequest,
  upstreamModel: string,
): SpeechRequestWire {
  return {
    model: upstreamModel,
    input: request.input,
    voice: request.voice,
    response_format: request.responseFormat,
    speed: request.speed,
  };
}
