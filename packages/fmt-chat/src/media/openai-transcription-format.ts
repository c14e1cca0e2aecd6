// The five `response_format` values of a transcription and the media type each is answered with.
// docs/api-reference.md: json gives `{text}`, verbose_json adds timing; text, srt and vtt are plain text bodies.

export const TRANSCRIPTION_FORMATS = ["json", "text", "srt", "verbose_json", "vtt"] as const;
export type TranscriptionFormat = (typeof TRANSCRIPTION_FORMATS)[number];
export const TRANSCRIPTION_DEFAULT_FORMAT: TranscriptionFormat = "json";

export const TRANSCRIPTION_CONTENT_TYPES: Readonly<Record<TranscriptionFormat, string>> = {
  json: "application/json",
  verbose_json: "application/json",
  text: "text/plain; charset=utf-8",
  srt: "text/plain; charset=utf-8",
  // WebVTT's registered type; still a plain text body.
  vtt: "text/vtt; charset=utf-8",
};
