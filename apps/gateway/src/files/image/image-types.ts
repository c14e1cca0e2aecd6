import { gifStructure } from "./gif-structure.ts";
import { jpegStructure } from "./jpeg-structure.ts";
import { pngStructure } from "./png-structure.ts";
import type { StructureWalk } from "./structure-walk.ts";
import { webpStructure } from "./webp-structure.ts";

export interface ImageType {
  /** What the file is served as and the upload record reports. */
  readonly contentType: string;
  readonly extension: string;
  readonly structure: () => StructureWalk;
}

const PNG: ImageType = { contentType: "image/png", extension: "png", structure: pngStructure };

/** The upload endpoint's types (docs/api-reference.md), by the MIME type `file-type` detects. */
export const UPLOAD_IMAGE_TYPES: Readonly<Record<string, ImageType>> = {
  "image/jpeg": { contentType: "image/jpeg", extension: "jpg", structure: jpegStructure },
  "image/png": PNG,
  // An animated PNG is a PNG (its extra chunks are ancillary); served as one.
  "image/apng": PNG,
  "image/gif": { contentType: "image/gif", extension: "gif", structure: gifStructure },
  "image/webp": { contentType: "image/webp", extension: "webp", structure: webpStructure },
};

export const UPLOAD_TYPE_NAMES = "jpeg, png, gif, webp";
