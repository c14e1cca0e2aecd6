import { randomInt } from "node:crypto";

// A file's key is its name in the store and the last segment of its public URL, which is the
// only capability needed to read it: so it is random (32 base62 characters, ~190 bits) and
// restricted to characters that are safe as a file name, an S3 key and a URL segment.

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 32;

/** No dot first, no slash, no `..`: a key never leaves the store's directory or prefix. */
const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}(\.[A-Za-z0-9]{1,10})?$/;
const EXTENSION_PATTERN = /^[A-Za-z0-9]{1,10}$/;

/** A fresh unguessable key ending in `.<extension>` (e.g. `png`, `mp4`). */
export function newFileKey(extension: string): string {
  if (!EXTENSION_PATTERN.test(extension)) throw new RangeError(`bad file extension: ${extension}`);
  let random = "";
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(BASE62.length)];
  return `${random}.${extension}`;
}

export const isFileKey = (key: string): boolean => KEY_PATTERN.test(key);

/** Stores refuse any other key, so a crafted one can never name a path outside them. */
export function assertFileKey(key: string): void {
  if (!isFileKey(key)) throw new RangeError(`invalid file key: ${JSON.stringify(key)}`);
}
