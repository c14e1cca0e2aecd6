import type { Request } from "@interlingua/core-types";
import { likelyPromptTokens, measurePrompt } from "../billing/prompt-size.ts";
import type { HeaderWarning } from "../contract/client-contract.ts";

/** What the reply of a count the gateway made itself says of it (`x-interlingua-warnings`). */
export const ESTIMATED: HeaderWarning = { feature: "input_tokens", type: "estimated" };

/**
 * The prompt tokens of a request no upstream can count: the estimate billing charges when an
 * upstream reports no usage (four characters a token, a flat amount per image or file).
 */
export const estimateCount = (request: Request): number =>
  likelyPromptTokens(measurePrompt(request));
