import type { Codec } from "@interlingua/core-types";
import { responses } from "@interlingua/fmt-responses";
import { CLIENT_PROTOCOLS } from "../upstream/protocols.ts";
import type { ClientCall, ReplyShape } from "./generation-request.ts";

/**
 * The codec that renders a client's reply. Bare bodies are "the provider's own wire format"
 * (DESIGN.md §3): for `/v1/responses` that is OpenAI's real Responses API (`output[]` items), so
 * the official SDKs work; with the spec envelope it is docs/api-reference.md's chat-like result. Both share the
 * request parser and the stream encoder, which already speak OpenAI's events.
 */
export function clientCodec(
  request: Pick<ClientCall, "endpoint"> & Pick<ReplyShape, "wrap">,
): Codec {
  if (request.endpoint.format === "responses" && !request.wrap) return responses;
  return CLIENT_PROTOCOLS[request.endpoint.format].codec;
}
