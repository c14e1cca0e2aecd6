import * as z from "zod/mini";

/**
 * The events the encoder can write, as a zod schema: the oracle of the property tests and a
 * validator for callers. The encoder itself checks with `sseEventProblem`, the same rules
 * without zod's cost on the hot path. zod's mini build keeps this package's browser bundle small.
 */
export const sseEventSchema = z.object({
  event: z.optional(z.string().check(z.regex(/^[^\r\n]*$/, "has a line break"))),
  data: z.string(),
  id: z.optional(z.string().check(z.regex(/^[^\r\n\0]*$/, "has a line break or a NULL character"))),
  retry: z.optional(z.int().check(z.nonnegative())),
});
