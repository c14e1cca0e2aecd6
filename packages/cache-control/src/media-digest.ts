import { sha256, sha256Hex, toHex } from "./sha256.js";

/** Base64 text -> bytes; undefined when it is not valid base64 (then the text itself is hashed). */
function decodeBase64(data: string): Uint8Array | undefined {
  let binary: string;
  try {
    binary = atob(data);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * A content hash of inline media: the digest of the decoded bytes, so the key carries 64 hex
 * characters instead of megabytes of base64, and two encodings of the same bytes (with or
 * without line breaks) hash alike.
 */
export function base64Digest(data: string): string {
  const bytes = decodeBase64(data.replace(/\s+/g, ""));
  return bytes === undefined ? `text:${sha256Hex(data)}` : toHex(sha256(bytes));
}
