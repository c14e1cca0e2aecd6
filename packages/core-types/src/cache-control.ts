import * as z from "zod/mini";
import { zObject } from "./zod-object.js";

/**
 * An inline cache boundary. The part carrying it, and everything before it, form the cached prefix.
 * Only the two ttl values the spec allows are representable; any other value is refused at parse time.
 */
export const cacheTtlSchema = z.enum(["5m", "1h"]);
export type CacheTtl = z.infer<typeof cacheTtlSchema>;

export const cacheControlSchema = zObject({
  type: z.literal("ephemeral"),
  ttl: z.exactOptional(cacheTtlSchema),
});
export type CacheControl = z.infer<typeof cacheControlSchema>;
