import { zObject } from "@interlingua/core-types";
import * as z from "zod/mini";
import type { ReadBody } from "./read-body.js";

/**
 * Bodies of proxies and compatible providers that do not follow the protocol's error shape:
 * `{"error": "..."}`, `{"message": "..."}`, FastAPI's `{"detail": "..."}`, or plain text.
 */
const looseBodySchema = z.union([
  z.pipe(
    zObject({ error: z.string() }),
    z.transform((body) => body.error),
  ),
  z.pipe(
    zObject({ message: z.string() }),
    z.transform((body) => body.message),
  ),
  z.pipe(
    zObject({ detail: z.string() }),
    z.transform((body) => body.detail),
  ),
]);

export const looseErrorMessage = (read: ReadBody): string | undefined => {
  // A non-JSON body is shown only when it reads as a message, never when it is an HTML page.
  if (read.kind === "text") return /^\s*</.test(read.text) ? undefined : read.text;
  const parsed = looseBodySchema.safeParse(read.json);
  return parsed.success ? parsed.data : undefined;
};
