import { z } from "zod";

/** A JSON object whose contents the canonical model carries but does not interpret (schemas, options). */
export const jsonObjectSchema = z.record(z.string(), z.unknown());
export type JsonObject = z.infer<typeof jsonObjectSchema>;
