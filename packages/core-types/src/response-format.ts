import * as z from "zod";
import { jsonObjectSchema } from "./json-value.js";

/** Structured output: plain text, any JSON object, or JSON matching a schema. */
export const responseFormatSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text") }),
  z.object({ type: z.literal("json-object") }),
  z.object({
    type: z.literal("json-schema"),
    name: z.string().exactOptional(),
    schema: jsonObjectSchema,
    strict: z.boolean().exactOptional(),
  }),
]);
export type ResponseFormat = z.infer<typeof responseFormatSchema>;
