import { parseFile } from "music-metadata";

/**
 * The fewest bytes a second of audio can take in the accepted formats (about 4 kbit/s; real
 * speech codecs go down to 6): a file of `n` bytes holds at most n / this many seconds, whatever
 * its headers or the upstream say.
 */
export const MIN_AUDIO_BYTES_PER_SECOND = 500;

/** The most seconds of audio a file of this size can hold. */
export const maxAudioSeconds = (bytes: number): number =>
  Math.max(1, bytes / MIN_AUDIO_BYTES_PER_SECOND);

/**
 * The duration of a spooled audio file read from the audio itself (music-metadata: container
 * headers, or a frame count where the headers say nothing), in seconds; undefined when the file
 * does not say. Bounded by what the file's size can hold, so a header claiming hours in a small
 * file is not believed either.
 */
export async function measureAudioSeconds(
  path: string,
  bytes: number,
): Promise<number | undefined> {
  let seconds: number | undefined;
  try {
    const metadata = await parseFile(path, { duration: true, skipCovers: true });
    seconds = metadata.format.duration;
  } catch {
    return undefined;
  }
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return undefined;
  return Math.min(seconds, maxAudioSeconds(bytes));
}

/**
 * The seconds a transcription is billed for: the file's own duration; only when the file does
 * not say, what the upstream reported, within what the file can hold. Rounded to milliseconds.
 */
export function billedSeconds(
  measured: number | undefined,
  reported: number | undefined,
  bytes: number,
): number {
  const upstream =
    reported !== undefined && Number.isFinite(reported) && reported > 0
      ? Math.min(reported, maxAudioSeconds(bytes))
      : 0;
  return Math.round((measured ?? upstream) * 1000) / 1000;
}
