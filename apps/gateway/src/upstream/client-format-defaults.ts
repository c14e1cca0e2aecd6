import type { Request, WireFormat } from "@interlingua/core-types";

/**
 * What a client format leaves unsaid but means, made explicit before rendering for an upstream
 * whose default differs. Anthropic shows thinking unless told otherwise (`display` absent);
 * Gemini hides thoughts unless `includeThoughts` is set. So a messages client's thinking sent to
 * a Gemini model asks for the thoughts it would have got from Claude.
 */
export function withClientDefaults(
  request: Request,
  client: WireFormat,
  upstream: WireFormat,
): Request {
  const thinking = request.thinking;
  if (client !== "messages" || upstream !== "native" || thinking === undefined) return request;
  if (thinking.type === "disabled" || thinking.includeThoughts !== undefined) return request;
  return { ...request, thinking: { ...thinking, includeThoughts: true } };
}
