import { fileTypeFromFile } from "file-type";

/** A file's sniffed type, and the extension the upstream is told (OpenAI reads the name's). */
export interface SniffedAudio {
  /** file-type's extension for the bytes. */
  readonly detected: string;
  readonly mime: string;
  /** The extension of the name sent upstream: one of docs/api-reference.md's, for this container. */
  readonly uploadExtension: string;
}

/**
 * docs/api-reference.md's transcription types (mp3, mp4, mpeg, mpga, m4a, wav, webm) by what file-type reports
 * for their bytes: MPEG audio of any layer is mpga (mp3 is layer III), an MPEG program stream
 * is mpeg.
 */
const ALLOWED: Readonly<Record<string, string>> = {
  mp3: "mp3",
  mp2: "mpga",
  mp1: "mpga",
  mp4: "mp4",
  m4a: "m4a",
  mpg: "mpeg",
  wav: "wav",
  webm: "webm",
};

export const ALLOWED_AUDIO_TYPES = "mp3, mp4, mpeg, mpga, m4a, wav, webm";

/**
 * The type of a spooled file from its bytes, never from its name or declared type: `ok: false`
 * with what was found (or nothing) when it is not one docs/api-reference.md allows.
 */
export async function sniffAudio(
  path: string,
): Promise<{ ok: true; type: SniffedAudio } | { ok: false; detected: string | undefined }> {
  const found = await fileTypeFromFile(path);
  const upload = found === undefined ? undefined : ALLOWED[found.ext];
  if (found === undefined || upload === undefined) return { ok: false, detected: found?.ext };
  return { ok: true, type: { detected: found.ext, mime: found.mime, uploadExtension: upload } };
}
