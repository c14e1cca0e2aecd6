import {
  type DataUrl,
  formatDataUrl,
  type ImageSource,
  parseDataUrl,
} from "@interlingua/core-types";

/**
 * docs/api-reference.md: `image_url` is a public http(s) URL or a full data URI
 * `data:image/<jpeg|png|gif|webp>;base64,<data>`; the prefix is mandatory. Anything else (bare
 * base64, another media type, ftp:, a data URI without `;base64`) is refused by the schema.
 */
export const imageMediaTypes = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;

const base64Pattern = /^[A-Za-z0-9+/]+={0,2}$/;
const httpUrlPattern = /^https?:\/\/[^\s/?#]+[^\s]*$/i;

export const imageUrlRule =
  "must be an http(s) URL or a data URI data:image/<jpeg|png|gif|webp>;base64,<data>";

export const isHttpUrl = (value: string): boolean => httpUrlPattern.test(value);

/** A data URL the spec allows: one of its image types, data in the base64 alphabet. */
const isSpecImage = (source: DataUrl): boolean =>
  (imageMediaTypes as readonly string[]).includes(source.mediaType) &&
  base64Pattern.test(source.data);

/** The spec's image data URL in `value`, or undefined. */
const specImageOf = (value: string): DataUrl | undefined => {
  const parsed = parseDataUrl(value);
  return parsed !== undefined && isSpecImage(parsed) ? parsed : undefined;
};

export const isValidImageUrl = (value: string): boolean =>
  isHttpUrl(value) || specImageOf(value) !== undefined;

/** docs/api-reference.md Limits: an image in a responses request is at most 20 MB. */
export const MAX_INLINE_IMAGE_BYTES = 20_971_520;

/** The bytes base64 `data` decodes to, from its length alone (padding subtracted). */
export const base64DecodedBytes = (data: string): number => {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
};

/**
 * The decoded size of an inline (data URI) image over the limit, or undefined: within it, or a
 * URL, whose bytes the gateway never holds.
 */
export function oversizedInlineImage(value: string): number | undefined {
  const image = parseDataUrl(value);
  if (image === undefined) return undefined;
  const bytes = base64DecodedBytes(image.data);
  return bytes > MAX_INLINE_IMAGE_BYTES ? bytes : undefined;
}

/** A validated `image_url` as a canonical image source (data URIs become base64 sources). */
export function imageSourceFromUrl(value: string): ImageSource {
  const image = specImageOf(value);
  if (image) return { type: "base64", mediaType: image.mediaType, data: image.data };
  return { type: "url", url: value };
}

/** The `image_url` of a canonical source, or undefined when the spec cannot express it. */
export function imageUrlFromSource(source: ImageSource): string | undefined {
  if (source.type === "url") return isHttpUrl(source.url) ? source.url : undefined;
  return isSpecImage(source) ? formatDataUrl(source) : undefined;
}
