import { z } from "zod";

/**
 * The events the encoder can write, as a zod schema: the oracle of the property tests and a
 * validator for callers. The encoder itself checks with `sseEventProblem`, the same rules
 * without zod's cost on the hot path.
 */
export const sseEventSchema = z.object({
  event: z
    .string()
    .regex(/^[^\r\n]*$/, "has a line break")
    .optional(),
  data: z.string(),
  id: z
    .string()
    .regex(/^[^\r\n\0]*$/, "has a line break or a NULL character")
    .optional(),
  retry: z.int().nonnegative().optional(),
});
