import * as z from "zod/mini";
import { jsonObjectSchema } from "./json-value.js";
import { zObject } from "./zod-object.js";

/** Structured output: plain text, any JSON object, or JSON matching a schema. */
export const responseFormatSchema = z.discriminatedUnion("type", [
  zObject({ type: z.literal("text") }),
  zObject({ type: z.literal("json-object") }),
  zObject({
    type: z.literal("json-schema"),
    name: z.exactOptional(z.string()),
    schema: jsonObjectSchema,
    strict: z.exactOptional(z.boolean()),
  }),
]);
export type ResponseFormat = z.infer<typeof responseFormatSchema>;
