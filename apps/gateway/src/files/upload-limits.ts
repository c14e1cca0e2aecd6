/** docs/api-reference.md Limits: the uploaded image. */
export const UPLOAD_MAX_BYTES = 20_971_520;

/** docs/api-reference.md Limits: an uploaded image's URL lifetime (72 hours). */
export const UPLOAD_TTL_MS = 72 * 60 * 60 * 1000;

/**
 * The most of one upload request that is read: the image, the multipart framing and other
 * fields. An oversized image is read to its end (and dropped) so the client gets its 413 on a
 * healthy connection; past this bound the 413 comes with the connection closed instead.
 */
export const UPLOAD_BODY_LIMIT = 2 * UPLOAD_MAX_BYTES;
