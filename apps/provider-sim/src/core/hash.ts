import { createHash } from "node:crypto";

export function sha256(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/** A stable id fragment derived from a seed (usually the request body), so replies are repeatable. */
export function hexId(seed: string, length = 24): string {
  return sha256(seed).toString("hex").slice(0, length);
}

/** Letters and digits only, like the providers' own ids. */
export function alnumId(seed: string, length = 24): string {
  return sha256(seed)
    .toString("base64")
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, length);
}

export function base64Digest(text: string): string {
  return sha256(text).toString("base64");
}

/**
 * What the request log keeps of an API key: enough to tell which key was used
 * (compare with `keyFingerprint(expectedKey)`), never the key itself.
 */
export function keyFingerprint(key: string): string {
  return `key_${hexId(`key:${key}`, 12)}`;
}
