import { randomBytes } from "node:crypto";

export const REQUEST_ID_HEADER = "x-request-id";

const ID_BYTES = 12;
/** Ids drawn per trip to the CSPRNG: one `randomBytes` call per request was a hot spot. */
const IDS_PER_REFILL = 256;
let pool = Buffer.alloc(0);
let offset = 0;

/** A short, URL-safe, unguessable id; callers' own ids are not trusted into our logs. */
export function newRequestId(): string {
  if (offset === pool.length) {
    pool = randomBytes(ID_BYTES * IDS_PER_REFILL);
    offset = 0;
  }
  const id = pool.toString("base64url", offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return `req_${id}`;
}
