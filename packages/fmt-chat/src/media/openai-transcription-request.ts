import { zObject } from "@interlingua/core-types";
import { invalidFromZod, invalidRequest } from "@interlingua/errors";
import * as z from "zod/mini";
import {
  TRANSCRIPTION_DEFAULT_FORMAT,
  TRANSCRIPTION_FORMATS,
  type TranscriptionFormat,
} from "./openai-transcription-format.js";

// The text fields of a transcription's multipart form (the file itself is the caller's: it is
// streamed, sniffed and measured outside this package).

/**
 * The ISO-639-1 codes of the languages Whisper recognises (docs/api-reference.md: "99 languages"). Whisper's
 * own table says `jw` for Javanese (ISO: `jv`) and `haw` for Hawaiian, which has no two-letter
 * code; the ISO spelling is what clients send, so `jv` is here and `haw` is not.
 */
export const TRANSCRIPTION_LANGUAGES: ReadonlySet<string> = new Set(
  (
    "en zh de es ru ko fr ja pt tr pl ca nl ar sv it id hi fi vi he uk el ms cs ro da hu ta no " +
    "th ur hr bg lt la mi ml cy sk te fa lv bn sr az sl kn et mk br eu is hy ne mn bs kk sq sw " +
    "gl mr pa si km sn yo so af oc ka be tg sd gu am yi lo uz fo ht ps tk nn mt sa lb my bo tl " +
    "mg as tt ln ha ba jv su"
  ).split(" "),
);

/** docs/api-reference.md's limit on `prompt`. */
export const TRANSCRIPTION_MAX_PROMPT_TOKENS = 224;

/** Scripts whose words a BPE tokenizer splits into several letters per token. */
const ALPHABETIC = /^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]+$/u;

/**
 * Tokens of a prompt, estimated without Whisper's tokenizer and on the high side for English: a
 * run of letters counts one token per 4 letters (rounded up), every digit, punctuation mark or
 * other symbol one token (a CJK character is one), whitespace nothing.
 */
export function estimatePromptTokens(prompt: string): number {
  let tokens = 0;
  for (const piece of prompt.match(/\p{L}+|\S/gu) ?? []) {
    tokens += ALPHABETIC.test(piece) ? Math.ceil(piece.length / 4) : [...piece].length;
  }
  return tokens;
}

// Form fields are strings: a number is a decimal literal, not whatever Number() accepts ("",
// "0x1", "Infinity").
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

export const transcriptionFieldsSchema = zObject({
  model: z.string().check(z.minLength(1)),
  language: z.exactOptional(
    z
      .pipe(
        z.string(),
        z.transform((code) => code.trim().toLowerCase()),
      )
      .check(
        z.refine((code) => TRANSCRIPTION_LANGUAGES.has(code), {
          message: "must be an ISO-639-1 language code Whisper recognises, such as en",
        }),
      ),
  ),
  prompt: z.exactOptional(
    z.string().check(
      z.refine((prompt) => estimatePromptTokens(prompt) <= TRANSCRIPTION_MAX_PROMPT_TOKENS, {
        message: `must be at most ${TRANSCRIPTION_MAX_PROMPT_TOKENS} tokens`,
      }),
    ),
  ),
  response_format: z.exactOptional(z.enum(TRANSCRIPTION_FORMATS)),
  temperature: z.exactOptional(
    z.pipe(
      z.pipe(
        z.string().check(z.trim()).check(z.regex(DECIMAL, "must be a number")),
        z.transform(Number),
      ),
      z.number().check(z.gte(0)).check(z.lte(1)),
    ),
  ),
});

/** A transcription's options, validated, with the default format applied. */
export interface TranscriptionOptions {
  readonly model: string;
  readonly language?: string;
  readonly prompt?: string;
  readonly responseFormat: TranscriptionFormat;
  readonly temperature?: number;
}

/**
 * The form's text fields -> options. Throws a 400 GatewayError naming the field. A field sent
 * twice is refused (which value counts would otherwise be a guess); unknown fields are ignored.
 */
export function parseTranscriptionFields(
  fields: Readonly<Record<string, string | readonly string[]>>,
): TranscriptionOptions {
  const single: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === "string") single[name] = value;
    else if (value.length === 1) single[name] = value[0]!;
    else if (name in transcriptionFieldsSchema.shape) {
      throw invalidRequest(`Invalid transcription request: ${name}: sent more than once`, name);
    }
  }
  const parsed = transcriptionFieldsSchema.safeParse(single);
  if (!parsed.success) throw invalidFromZod(parsed.error, "transcription request");
  const wire = parsed.data;
  return {
    model: wire.model,
    responseFormat: wire.response_format ?? TRANSCRIPTION_DEFAULT_FORMAT,
    ...(wire.language === undefined ? {} : { language: wire.language }),
    ...(wire.prompt === undefined ? {} : { prompt: wire.prompt }),
    ...(wire.temperature === undefined ? {} : { temperature: wire.temperature }),
  };
}

/**
 * The text fields of the upstream form, in order (the file goes last, by the caller): always
 * `verbose_json`, the one format every other is rendered from.
 */
export function renderTranscriptionFields(
  options: TranscriptionOptions,
  upstreamModel: string,
): [name: string, value: string][] {
  const fields: [string, string][] = [
    ["model", upstreamModel],
    ["response_format", "verbose_json"],
  ];
  if (options.language !== undefined) fields.push(["language", options.language]);
  if (options.prompt !== undefined) fields.push(["prompt", options.prompt]);
  if (options.temperature !== undefined) fields.push(["temperature", String(options.temperature)]);
  return fields;
}
