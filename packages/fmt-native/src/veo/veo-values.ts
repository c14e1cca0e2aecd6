import type { VeoPersonGeneration, VeoResizeMode, VeoResolution } from "./veo-api.js";

// The API reference spells some values its own way; these tables give the upstream's. Unknown -> undefined,
// for the caller to refuse with a 400 naming its own field.

const resolutions: Readonly<Record<string, VeoResolution>> = {
  "720p": "720p",
  "1080p": "1080p",
  "4k": "4k",
};

const personGenerations: Readonly<Record<string, VeoPersonGeneration>> = {
  allow_all: "allow_all",
  allow_adult: "allow_adult",
  dont_allow: "dont_allow",
  disallow: "dont_allow",
};

const resizeModes: Readonly<Record<string, VeoResizeMode>> = { pad: "pad", crop: "crop" };

const lookup = <T>(table: Readonly<Record<string, T>>, value: string): T | undefined =>
  Object.hasOwn(table, value.toLowerCase()) ? table[value.toLowerCase()] : undefined;

/** `720p`, `1080p`, `4k` / `4K` -> the upstream's lowercase value. */
export const toVeoResolution = (value: string): VeoResolution | undefined =>
  lookup(resolutions, value);

/** The API reference's `allow_adult` / `disallow` (and the upstream's own values) -> the upstream's value. */
export const toVeoPersonGeneration = (value: string): VeoPersonGeneration | undefined =>
  lookup(personGenerations, value);

/** `pad` / `crop`. */
export const toVeoResizeMode = (value: string): VeoResizeMode | undefined =>
  lookup(resizeModes, value);
