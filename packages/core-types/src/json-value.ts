import * as z from "zod/mini";

/**
 * A JSON object whose contents the canonical model carries but does not interpret (schemas,
 * options, tool inputs). Checked for shape only: a record schema would copy and re-validate every
 * key of every JSON schema on the request hot path. Format packages reuse it for the same reason.
 */
export const jsonObjectSchema = z.custom<Record<string, unknown>>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value),
  { error: "Invalid input: expected an object" },
);
export type JsonObject = z.infer<typeof jsonObjectSchema>;
