import {
  type GeminiImageAspectRatio,
  type GeminiImageSize,
  geminiImageAspectRatios,
} from "./gemini-image-api.js";

export interface GeminiImageShape {
  aspectRatio: GeminiImageAspectRatio;
  imageSize?: GeminiImageSize;
}

const ratioPattern = /^(\d{1,5}):(\d{1,5})$/;
const pixelPattern = /^(\d{1,5})[xX×](\d{1,5})$/;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

const reduce = (width: number, height: number): string => {
  const divisor = gcd(width, height);
  return `${width / divisor}:${height / divisor}`;
};

/** Reduced ratio -> the documented spelling (`7:3` -> `21:9`). */
const byReducedRatio: ReadonlyMap<string, GeminiImageAspectRatio> = new Map(
  geminiImageAspectRatios.map((ratio) => {
    const [w, h] = ratio.split(":").map(Number);
    return [reduce(w ?? 1, h ?? 1), ratio];
  }),
);

/** Longest edge -> the smallest imageSize that covers it (the upstream's 1K / 2K / 4K tiers). */
const sizeTiers: readonly [number, GeminiImageSize][] = [
  [1024, "1K"],
  [2048, "2K"],
  [4096, "4K"],
];

/**
 * The API reference's `size` (a ratio `16:9` or pixels `1920x1080`) -> imageConfig. The ratio, reduced, must be
 * one the upstream documents (`7:3` is `21:9`); pixels also pick the size tier. Anything else -> undefined (the
 * caller refuses with a 400 on `size`).
 */
export function geminiImageShape(size: string): GeminiImageShape | undefined {
  const trimmed = size.trim();
  const ratio = ratioPattern.exec(trimmed);
  const pixels = ratio === null ? pixelPattern.exec(trimmed) : null;
  const match = ratio ?? pixels;
  if (match === null) return undefined;
  const width = Number(match[1]);
  const height = Number(match[2]);
  if (width === 0 || height === 0) return undefined;
  const aspectRatio = byReducedRatio.get(reduce(width, height));
  if (aspectRatio === undefined) return undefined;
  if (pixels === null) return { aspectRatio };
  const tier = sizeTiers.find(([edge]) => Math.max(width, height) <= edge);
  return tier === undefined ? undefined : { aspectRatio, imageSize: tier[1] };
}
