import type { ImageRequest } from "@interlingua/tasks";

/** What the image jobs read of the stored request (the tasks package's ImageRequest). */
export type ImageInput = ImageRequest;

/** The size as the API reference's text (`16:9`, `1024x1024`), for the wire packages' size tables. */
export function sizeText(size: ImageRequest["size"]): string | undefined {
  if (size === undefined) return undefined;
  if ("aspectRatio" in size) return size.aspectRatio;
  return `${size.width}x${size.height}`;
}
