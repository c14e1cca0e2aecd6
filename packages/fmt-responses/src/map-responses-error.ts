import type { StreamEventOf } from "@interlingua/core-types";
import { parseOpenAIError, standardErrorTypeFor } from "@interlingua/errors";

type CanonicalError = StreamEventOf<"error">["error"];

/**
 * An error read from a Responses stream (`error` event, nested or top-level fields, or
 * `response.failed`) or body, as the client should see it. The rules are the errors package's
 * for any OpenAI upstream error: the status each code stands for, then the gateway's view of it
 * (a client fault keeps its status and code; the upstream account's or server's problem is 502).
 */
export function errorFromResponsesWire(body: unknown): CanonicalError {
  const error = parseOpenAIError(200, body);
  const out: CanonicalError = { status: error.status, type: error.type, message: error.message };
  if (error.code !== undefined) out.code = error.code;
  return out;
}

export interface ResponsesErrorFields {
  code: string;
  message: string;
  param: null;
  error: { type: string; code: string | null; message: string; param: null };
}

/**
 * The fields of an `error` event: OpenAI documents `{code, message, param}` at the top level and
 * really sends them nested in `error` (openai-error.1.chunks.txt), so both are written; the
 * official SDKs throw on the nested object and typed clients read the top-level one.
 */
export function errorToResponsesWire(error: CanonicalError): ResponsesErrorFields {
  // The standard type of the status, as the chat stream and non-stream errors write it: an
  // error decoded from another family (Anthropic's overloaded_error) keeps its status only.
  const type = standardErrorTypeFor(error.status);
  return {
    code: error.code ?? type,
    message: error.message,
    param: null,
    error: { type, code: error.code ?? null, message: error.message, param: null },
  };
}
