import { REQUEST_ID_HEADER } from "../contract/client-contract.ts";
import type { ErrorFamily } from "../contract/error-response.ts";
import { envelopeOf } from "./route-envelope.ts";

// The request id goes out as `x-request-id` (OpenAI's name) on every reply. Anthropic's API
// names it `request-id`, which its SDKs read into `_request_id`: the messages family gets both.
const EXTRA: Partial<Record<ErrorFamily, string>> = { messages: "request-id" };

const WITH_EXTRA = new Map<ErrorFamily, readonly string[]>(
  Object.entries(EXTRA).map(([family, name]) => [family as ErrorFamily, [REQUEST_ID_HEADER, name]]),
);
const PLAIN: readonly string[] = [REQUEST_ID_HEADER];

/** The header names that carry the request id on a reply to `path`. */
export const requestIdHeaders = (path: string): readonly string[] =>
  WITH_EXTRA.get(envelopeOf(path)) ?? PLAIN;
