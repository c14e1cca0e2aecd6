import * as z from "zod/mini";
import { jsonObjectSchema } from "./json-value.js";

/** Structured output: plain text, any JSON object, or JSON matching a schema. */
export const responseFormatSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text") }),
  z.object({ type: z.literal("json-object") }),
  z.object({
    type: z.literal("json-schema"),
    name: z.exactOptional(z.string()),
    schema: jsonObjectSchema,
    strict: z.exactOptional(z.boolean()),
  }),
]);
export type ResponseFormat = z.infer<typeof responseFormatSchema>;
