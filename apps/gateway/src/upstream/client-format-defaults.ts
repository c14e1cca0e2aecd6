import type { Request, UpstreamProtocol, WireFormat } from "@interlingua/core-types";

/** Upstreams that keep thought text back unless asked: Gemini, and OpenAI's Responses API summaries. */
const HIDES_THOUGHTS: ReadonlySet<string> = new Set(["native", "openai-responses"]);

/**
 * Makes a client format's implied defaults explicit for an upstream whose default differs: Claude
 * shows thinking unless told otherwise, Gemini and the Responses API only when asked.
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
