/**
 * Judging caller-supplied media URLs before anything is fetched. Only syntax is judged here; the
 * gateway checks size and type after fetching (and re-checks the target address).
 */

const BASE64_REFUSED =
  "base64 image data is no longer accepted; upload the image with POST /v1/uploads/images and pass its URL";

/** Extensions the API reference lists for standard video image_urls. */
export const VIDEO_IMAGE_EXTENSIONS = ["jpeg", "jpg", "png", "webp"] as const;

/** Why `raw` is not a usable public http(s) URL, or undefined when it is. */
export function httpUrlProblem(raw: string): string | undefined {
  const text = raw.trim();
  if (/^data:/i.test(text)) return BASE64_REFUSED;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // A long run of base64 alphabet with no scheme is almost surely inline image data.
    return /^[A-Za-z0-9+/=\s]{64,}$/.test(text) ? BASE64_REFUSED : "must be an http or https URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must be an http or https URL";
  if (url.username || url.password) return "must not carry credentials";
  return undefined;
}

/**
 * The extension of the URL's last path segment, lowercased; undefined when it has none (the
 * gateway's own upload URLs `/files/<key>` have none, and are judged after fetching instead).
 */
export function urlExtension(raw: string): string | undefined {
  let path: string;
  try {
    path = new URL(raw.trim()).pathname;
  } catch {
    return undefined;
  }
  const segment = path.slice(path.lastIndexOf("/") + 1);
  const dot = segment.lastIndexOf(".");
  if (dot < 0 || dot === segment.length - 1) return undefined;
  let ext = segment.slice(dot + 1);
  try {
    ext = decodeURIComponent(ext);
  } catch {
    // keep the raw text; it will simply not match an allowed extension
  }
  return ext.toLowerCase();
}

/** An image URL for standard video: http(s), and an allowed extension when it has one. */
export function videoImageUrlProblem(raw: string): string | undefined {
  const problem = httpUrlProblem(raw);
  if (problem) return problem;
  const ext = urlExtension(raw);
  if (ext !== undefined && !(VIDEO_IMAGE_EXTENSIONS as readonly string[]).includes(ext)) {
    return `unsupported image format .${ext}; use .jpeg, .jpg, .png or .webp`;
  }
  return undefined;
}
