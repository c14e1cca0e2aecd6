import type { ImageSource } from "@interlingua/core-types";

/**
 * SPEC.md: `image_url` is a public http(s) URL or a full data URI
 * `data:image/<jpeg|png|gif|webp>;base64,<data>`; the prefix is mandatory. Anything else (bare
 * base64, another media type, ftp:, a data URI without `;base64`) is refused by the schema.
 */
export const imageMediaTypes = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;

const dataUriPattern = /^data:(image\/(?:jpeg|png|gif|webp));base64,([A-Za-z0-9+/]+={0,2})$/;
const httpUrlPattern = /^https?:\/\/[^\s/?#]+[^\s]*$/i;

export const imageUrlRule =
  "must be an http(s) URL or a data URI data:image/<jpeg|png|gif|webp>;base64,<data>";

export const isHttpUrl = (value: string): boolean => httpUrlPattern.test(value);

export const isValidImageUrl = (value: string): boolean =>
  isHttpUrl(value) || dataUriPattern.test(value);

/** A validated `image_url` as a canonical image source (data URIs become base64 sources). */
export function imageSourceFromUrl(value: string): ImageSource {
  const match = value.startsWith("data:") ? dataUriPattern.exec(value) : null;
  if (match) return { type: "base64", mediaType: match[1] as string, data: match[2] as string };
  return { type: "url", url: value };
}

/** The `image_url` of a canonical source, or undefined when the spec cannot express it. */
export function imageUrlFromSource(source: ImageSource): string | undefined {
  if (source.type === "url") return isHttpUrl(source.url) ? source.url : undefined;
  const url = `data:${source.mediaType};base64,${source.data}`;
  return dataUriPattern.test(url) ? url : undefined;
}
