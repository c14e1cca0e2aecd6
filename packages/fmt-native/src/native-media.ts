import type { FilePart, ImagePart } from "@interlingua/core-types";
import type { NativeFileData, NativeInlineData } from "./native-api.js";

/** File extensions of the image types the upstream reads, for URLs that arrive without a type. */
const imageTypeByExtension: Readonly<Record<string, string>> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  heic: "image/heic",
  heif: "image/heif",
};

/**
 * The media type a URL's path suggests, if it names an image. Canonical image URLs carry no media
 * type but the upstream's fileData wants one.
 */
export function guessImageType(url: string): string | undefined {
  const path = url.split(/[?#]/, 1)[0] ?? "";
  const dot = path.lastIndexOf(".");
  if (dot < 0 || dot < path.lastIndexOf("/")) return undefined;
  return imageTypeByExtension[path.slice(dot + 1).toLowerCase()];
}

/** What an image URL is rendered with when its path names no image type. */
export const defaultImageType = "image/jpeg";

/** The fileData mimeType the renderer writes for a canonical image URL. */
export const renderedImageType = (url: string) => guessImageType(url) ?? defaultImageType;

const isImageType = (mimeType: string) => mimeType.toLowerCase().startsWith("image/");

export function mediaFromInlineData(data: NativeInlineData): ImagePart | FilePart {
  return isImageType(data.mimeType)
    ? { type: "image", source: { type: "base64", mediaType: data.mimeType, data: data.data } }
    : { type: "file", source: { type: "base64", mediaType: data.mimeType, data: data.data } };
}

/** fileData is an image when its type says so, or, untyped, when its URL names an image. */
export function mediaFromFileData(data: NativeFileData): ImagePart | FilePart {
  const mimeType = data.mimeType ?? guessImageType(data.fileUri);
  if (mimeType !== undefined && isImageType(mimeType)) {
    return { type: "image", source: { type: "url", url: data.fileUri } };
  }
  const file: FilePart = { type: "file", source: { type: "url", url: data.fileUri } };
  if (data.mimeType !== undefined && file.source.type === "url") {
    file.source.mediaType = data.mimeType;
  }
  return file;
}
