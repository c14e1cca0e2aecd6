import { type FieldPath, type GatewayError, invalidFromZod } from "@interlingua/errors";
import type * as z from "zod/v4/core";

// The responses package's old names for the one zod-to-400 helper of @interlingua/errors, kept
// while the package's main entry still exports them.
export { formatFieldPath as formatPath } from "@interlingua/errors";

/** The first schema issue as the spec's 400 naming the field (see `invalidFromZod`). */
export function invalidRequestFromZod(error: z.$ZodError, prefix: FieldPath = []): GatewayError {
  return invalidFromZod(error, "request body", prefix);
}
