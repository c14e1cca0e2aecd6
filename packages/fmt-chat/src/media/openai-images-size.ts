import type { OpenAIImageSize } from "./openai-images-api.js";

const ratioPattern = /^(\d{1,5}):(\d{1,5})$/;
const pixelPattern = /^(\d{1,5})[xX×](\d{1,5})$/;

/** The fixed sizes and their width / height. */
const shapes: readonly [OpenAIImageSize, number][] = [
  ["1024x1024", 1],
  ["1536x1024", 1.5],
  ["1024x1536", 1024 / 1536],
];

/** Ratios past 1:4 / 4:1 are refused rather than squeezed into 2:3 or 3:2. */
const MAX_RATIO = 4;

/**
 * The API reference's `size` -> the OpenAI size. `auto` and the three fixed sizes pass as they are; any other
 * ratio (`16:9`) or pixel size (`1920x1080`) takes the fixed size nearest in shape (by log of
 * width / height), so 16:9 -> 1536x1024, 9:16 -> 1024x1536, 6:5 -> 1024x1024. Malformed, zero or
 * extreme (beyond 4:1) -> undefined: the caller refuses with a 400 on `size`.
 */
export function openAIImageSize(size: string): OpenAIImageSize | undefined {
  const trimmed = size.trim().toLowerCase();
  if (trimmed === "auto") return "auto";
  const match = ratioPattern.exec(trimmed) ?? pixelPattern.exec(trimmed);
  if (match === null) return undefined;
  const width = Number(match[1]);
  const height = Number(match[2]);
  if (width === 0 || height === 0) return undefined;
  const ratio = width / height;
  if (ratio > MAX_RATIO || ratio < 1 / MAX_RATIO) return undefined;
  let best: OpenAIImageSize = "1024x1024";
  let distance = Number.POSITIVE_INFINITY;
  for (const [name, shape] of shapes) {
    const d = Math.abs(Math.log(ratio / shape));
    if (d < distance) {
      best = name;
      distance = d;
    }
  }
  return best;
}
