import type { Handler } from "hono";
import { parseDirectives } from "../core/directives.ts";
import type { SimEnv } from "../core/env.ts";
import type { Produced } from "../core/respond.ts";
import { respond } from "../core/respond.ts";
import type { Sim } from "../core/sim.ts";
import { countTokens } from "../core/tokens.ts";
import { readWav } from "../media/wav.ts";
import { openaiPreamble } from "./preamble.ts";

// POST /v1/audio/transcriptions (multipart). The "transcript" of a WAV made by /v1/audio/speech is
// the text it was made from; any other file is transcribed as `transcript of <file name>`.

/** Bytes per second assumed for audio the simulator cannot measure (128 kbit/s). */
const ASSUMED_BYTE_RATE = 16_000;
/** Audio tokens per second for token-billed transcription models. */
const AUDIO_TOKENS_PER_SECOND = 10;

type Transcript = {
  text: string;
  duration: number;
  language: string;
  model: string;
  words: boolean;
};

function usage(t: Transcript) {
  if (!t.model.startsWith("gpt-")) return { type: "duration", seconds: Math.ceil(t.duration) };
  const audio = Math.ceil(t.duration * AUDIO_TOKENS_PER_SECOND);
  const output = countTokens(t.text);
  return {
    type: "tokens",
    input_tokens: audio,
    input_token_details: { text_tokens: 0, audio_tokens: audio },
    output_tokens: output,
    total_tokens: audio + output,
  };
}

function timestamp(seconds: number, separator: string): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms % 1000, 3)}`;
}

/** Whisper cuts a transcript into segments of up to about this many words. */
const WORDS_PER_SEGMENT = 12;

type Span = { start: number; end: number; text: string };

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The transcript cut into segments, deterministically: at sentence ends, and every
 * WORDS_PER_SEGMENT words inside a long sentence; each segment's time is its share of the
 * characters, so the last one ends exactly at the duration.
 */
function spans(t: Transcript): Span[] {
  const pieces: string[] = [];
  for (const sentence of t.text.split(/(?<=[.!?])\s+/)) {
    const words = sentence.split(/\s+/).filter(Boolean);
    for (let i = 0; i < words.length; i += WORDS_PER_SEGMENT) {
      pieces.push(words.slice(i, i + WORDS_PER_SEGMENT).join(" "));
    }
  }
  if (pieces.length === 0) return [];
  const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
  let done = 0;
  return pieces.map((piece, i) => {
    const start = round2((t.duration * done) / total);
    done += piece.length;
    const end = i === pieces.length - 1 ? t.duration : round2((t.duration * done) / total);
    return { start, end, text: piece };
  });
}

function segments(t: Transcript) {
  let token = 1000;
  return spans(t).map((span, id) => ({
    id,
    seek: Math.round(span.start * 100),
    start: span.start,
    end: span.end,
    text: span.text,
    tokens: span.text.split(" ").map(() => token++),
    temperature: 0,
    avg_logprob: -0.1,
    compression_ratio: 1,
    no_speech_prob: 0,
  }));
}

const cues = (t: Transcript, separator: string) =>
  spans(t).map(
    (span) =>
      `${timestamp(span.start, separator)} --> ${timestamp(span.end, separator)}\n${span.text}\n\n`,
  );

const FORMATS: Record<string, (t: Transcript) => Produced> = {
  json: (t) => ({ kind: "json", body: { text: t.text, usage: usage(t) } }),
  text: (t) => ({ kind: "text", text: `${t.text}\n`, contentType: "text/plain; charset=utf-8" }),
  verbose_json: (t) => {
    const words = t.text.split(/\s+/).filter(Boolean);
    const step = t.duration / Math.max(1, words.length);
    return {
      kind: "json",
      body: {
        task: "transcribe",
        language: t.language,
        duration: t.duration,
        text: t.text,
        segments: segments(t),
        ...(t.words
          ? { words: words.map((word, i) => ({ word, start: i * step, end: (i + 1) * step })) }
          : {}),
        usage: usage(t),
      },
    };
  },
  srt: (t) => ({
    kind: "text",
    text: cues(t, ",")
      .map((cue, i) => `${i + 1}\n${cue}`)
      .join(""),
    contentType: "text/plain; charset=utf-8",
  }),
  vtt: (t) => ({
    kind: "text",
    text: `WEBVTT\n\n${cues(t, ".").join("")}`,
    contentType: "text/vtt; charset=utf-8",
  }),
};

/** verbose_json names the language (`english`), as Whisper does, for the codes it knows here. */
const LANGUAGE_NAMES: Record<string, string> = {
  en: "english",
  de: "german",
  fr: "french",
  es: "spanish",
  it: "italian",
  pt: "portuguese",
  ja: "japanese",
  zh: "chinese",
  ko: "korean",
  ru: "russian",
};

function languageName(code: string | undefined): string {
  if (code === undefined) return "english";
  return LANGUAGE_NAMES[code.toLowerCase()] ?? code;
}

function text(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
}

export function transcriptionsRoute(sim: Sim): Handler<SimEnv> {
  return async (c) => {
    const request = openaiPreamble(c, sim);
    if (request instanceof Response) return request;
    const { body, errors, headers } = request;
    const form = body.form;
    const file = form?.get("file");
    if (!form || !(file instanceof File)) {
      return errors.response(400, { message: "Missing required parameter: 'file'." });
    }
    const model = text(form, "model");
    if (!model) return errors.response(400, { message: "Missing required parameter: 'model'." });
    const formatName = text(form, "response_format") ?? "json";
    const format = FORMATS[formatName];
    if (!format) {
      return errors.response(400, {
        message: `Invalid value: '${formatName}'. Supported values are: ${Object.keys(FORMATS).join(", ")}.`,
      });
    }
    const prompt = text(form, "prompt") ?? "";
    const directives = parseDirectives(prompt);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const wav = readWav(bytes);

    return respond(c, sim, {
      errors,
      headers,
      faultDirective: directives.fault,
      faultKey: `${file.name}:${prompt}`,
      replay: directives.replay,
      produce: () =>
        format({
          text: wav?.comment ?? `transcript of ${file.name}`,
          duration: Math.max(
            0.1,
            Math.round((wav?.durationSeconds ?? bytes.length / ASSUMED_BYTE_RATE) * 100) / 100,
          ),
          language: languageName(text(form, "language")),
          model,
          words: form.getAll("timestamp_granularities[]").includes("word"),
        }),
    });
  };
}
