import { type GatewayError, invalidFromZod } from "@interlingua/errors";
import type * as z from "zod/v4/core";

// Chat's old names for the one zod-to-400 helper of @interlingua/errors, kept while the
// package's main entry still exports them.
export {
  formatFieldPath as formatChatPath,
  invalidField as invalidChatField,
} from "@interlingua/errors";

/** The first schema issue as the spec's 400 naming the field (see `invalidFromZod`). */
export function invalidChatInput(error: z.$ZodError, what: string): GatewayError {
  return invalidFromZod(error, what);
}
