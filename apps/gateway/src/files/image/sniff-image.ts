import { fileTypeFromBuffer } from "file-type";
import { type ImageType, UPLOAD_IMAGE_TYPES } from "./image-types.ts";

/** How many leading bytes the sniff looks at (file-type's own detection window). */
export const SNIFF_BYTES = 4100;

/** The upload type the leading bytes show, whatever the name or header claimed; else undefined. */
export async function sniffImage(head: Uint8Array): Promise<ImageType | undefined> {
  const found = await fileTypeFromBuffer(head);
  return found === undefined ? undefined : UPLOAD_IMAGE_TYPES[found.mime];
}
