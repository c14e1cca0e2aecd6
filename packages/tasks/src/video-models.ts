/** docs/api-reference.md "POST /v1/videos/generations": model ids of the two variants. */
export const STANDARD_VIDEO_MODELS = [
  "vidV3.1-fast",
  "vidV3.1-quality",
  "vidV3.1-lite",
  "vidV3.1-fast-ext",
  "vidV3.1-quality-ext",
  "vidV3.1-lite-ext",
] as const;
export const OFFICIAL_VIDEO_MODELS = ["vidV3.1-fast-official", "vidV3.1-quality-official"] as const;
/** Remix takes fast or quality only (aliases accepted). */
export const REMIX_MODELS = [
  "vidV3.1-fast",
  "vidV3.1-quality",
  "vidV3.1-fast-ext",
  "vidV3.1-quality-ext",
] as const;

export type StandardVideoModel = (typeof STANDARD_VIDEO_MODELS)[number];
export type OfficialVideoModel = (typeof OFFICIAL_VIDEO_MODELS)[number];
export type VideoModel = StandardVideoModel | OfficialVideoModel;

export function isStandardVideoModel(model: string): model is StandardVideoModel {
  return (STANDARD_VIDEO_MODELS as readonly string[]).includes(model);
}
export function isOfficialVideoModel(model: string): model is OfficialVideoModel {
  return (OFFICIAL_VIDEO_MODELS as readonly string[]).includes(model);
}
export function isVideoModel(model: string): model is VideoModel {
  return isStandardVideoModel(model) || isOfficialVideoModel(model);
}

/** docs/api-reference.md "Versioning": `-ext` ids are exact aliases; the main name is the canonical one. */
export function canonicalVideoModel(model: string): string {
  return model.endsWith("-ext") ? model.slice(0, -"-ext".length) : model;
}
