import type { UpstreamProtocol } from "@interlingua/core-types";
import type { GatewayError } from "./gateway-error.js";
import { parseAnthropicError } from "./parse-anthropic-error.js";
import { parseGeminiError } from "./parse-gemini-error.js";
import { parseOpenAIError } from "./parse-openai-error.js";
import type { UpstreamErrorOptions } from "./upstream-error.js";

const parsers: Record<
  UpstreamProtocol,
  (status: number, body: unknown, options?: UpstreamErrorOptions) => GatewayError
> = {
  openai: parseOpenAIError,
  anthropic: parseAnthropicError,
  gemini: parseGeminiError,
  // The Responses API answers errors in OpenAI's one shape, in bodies and stream events alike.
  "openai-responses": (status, body, options) =>
    parseOpenAIError(status, body, options, "openai-responses"),
};

/**
 * Any upstream's error body as the error the client should see. Never throws: the body may be
 * anything (parsed JSON, raw text or bytes, an HTML page from a proxy). `status` is the upstream
 * HTTP status, 200 for an error event inside a stream.
 */
export const parseUpstreamError = (
  protocol: UpstreamProtocol,
  status: number,
  body: unknown,
  options?: UpstreamErrorOptions,
): GatewayError => parsers[protocol](status, body, options);
