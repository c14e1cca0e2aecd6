import type { Request, UpstreamProtocol, WireFormat } from "@interlingua/core-types";

/** Upstreams that keep thought text back unless asked: Gemini, and OpenAI's Responses API summaries. */
const HIDES_THOUGHTS: ReadonlySet<string> = new Set(["native", "openai-responses"]);

/**
 * What a client format leaves unsaid but means, made explicit before rendering for an upstream
 * whose default differs. Anthropic shows thinking unless told otherwise (`display` absent);
 * Gemini hides thoughts unless `includeThoughts` is set, and the Responses API gives a reasoning
 * summary only when asked. So a messages client's thinking sent to such a model asks for the
 * thoughts it would have got from Claude.
 */
export function withClientDefaults(
  request: Request,
  client: WireFormat,
  /** The upstream's own client format, or for a protocol no client format equals, its name. */
  upstream: WireFormat | UpstreamProtocol,
): Request {
  const thinking = request.thinking;
  if (client !== "messages" || !HIDES_THOUGHTS.has(upstream) || thinking === undefined) {
    return request;
  }
  if (thinking.type === "disabled" || thinking.includeThoughts !== undefined) return request;
  return { ...request, thinking: { ...thinking, includeThoughts: true } };
}
