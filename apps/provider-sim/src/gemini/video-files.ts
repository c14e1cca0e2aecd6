import { setBounded } from "../core/bounded-map.ts";
import { hexId } from "../core/hash.ts";

// The videos Veo operations produced: served by the files download route, and the only videos an
// extension request may name (the real API extends only videos Veo generated).

export type AspectRatio = "16:9" | "9:16";
export type Resolution = "720p" | "1080p" | "4k";

export type VideoFile = {
  id: string;
  seconds: number;
  aspectRatio: AspectRatio;
  resolution: Resolution;
  audio: boolean;
  createdAt: number;
};

const MAX_FILES = 40_000;

/** Long side x short side per resolution; 9:16 swaps them. */
const SIDES: Record<Resolution, [number, number]> = {
  "720p": [1280, 720],
  "1080p": [1920, 1080],
  "4k": [3840, 2160],
};

export function frameSize(file: VideoFile): { width: number; height: number } {
  const [long, short] = SIDES[file.resolution];
  return file.aspectRatio === "16:9"
    ? { width: long, height: short }
    : { width: short, height: long };
}

export function videoFileId(operation: string, index: number): string {
  return hexId(`${operation}:${index}`, 16);
}

export function videoUri(origin: string, version: string, id: string): string {
  return `${origin}/${version}/files/${id}:download?alt=media`;
}

/** The file id in a URI this simulator gave out (`…/files/{id}:download?alt=media`, or `files/{id}`). */
export function fileIdOfUri(uri: string): string | undefined {
  return /(?:^|\/)files\/([0-9a-f]{16})(?::download)?(?:\?.*)?$/.exec(uri)?.[1];
}

export type VideoFiles = {
  add(file: VideoFile): void;
  get(id: string): VideoFile | undefined;
};

export function createVideoFiles(): VideoFiles {
  const files = new Map<string, VideoFile>();
  return {
    add: (file) => setBounded(files, file.id, file, MAX_FILES),
    get: (id) => files.get(id),
  };
}
