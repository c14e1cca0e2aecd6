import { randomBytes } from "node:crypto";

export const REQUEST_ID_HEADER = "x-request-id";

/** A short, URL-safe, unguessable id; callers' own ids are not trusted into our logs. */
export function newRequestId(): string {
  return `req_${randomBytes(12).toString("base64url")}`;
}
