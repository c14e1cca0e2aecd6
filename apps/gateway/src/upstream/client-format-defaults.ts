import type { Protocol, Request, WireFormat } from "@interlingua/core-types";

/**
 * Makes a client format's implied defaults explicit for an upstream whose default differs: Claude
 * shows thinking unless told otherwise; some providers (Gemini, the Responses API's summaries)
 * only when asked.
 */
export function withClientDefaults(
  request: Request,
  client: WireFormat,
  upstream: Pick<Protocol, "hidesThoughts">,
): Request {
  const thinking = request.thinking;
  if (client !== "messages" || !upstream.hidesThoughts || thinking === undefined) return request;
  if (thinking.type === "disabled" || thinking.includeThoughts !== undefined) return request;
  return { ...request, thinking: { ...thinking, includeThoughts: true } };
}
