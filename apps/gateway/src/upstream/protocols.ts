import type {
  ForwardedHeaders,
  Protocol,
  UpstreamProtocol,
  WireFormat,
} from "@interlingua/core-types";
import type { GatewayError } from "@interlingua/errors";
import { chatProtocol } from "@interlingua/fmt-chat/protocol";
import { messagesProtocol } from "@interlingua/fmt-messages/protocol";
import { nativeProtocol } from "@interlingua/fmt-native/protocol";
import { responsesProtocol } from "@interlingua/fmt-responses/protocol";

/**
 * The one registry of providers: each format package owns its protocol's whole wire (codecs,
 * path, auth headers, request edits, field table). The gateway knows no provider by name.
 */
export const PROTOCOLS: Readonly<Record<UpstreamProtocol, Protocol<GatewayError>>> = {
  openai: chatProtocol,
  anthropic: messagesProtocol,
  gemini: nativeProtocol,
  "openai-responses": responsesProtocol,
};

/** The same protocols by the client format of their endpoint. */
export const CLIENT_PROTOCOLS = Object.fromEntries(
  Object.values(PROTOCOLS).map((p) => [p.format, p]),
) as Readonly<Record<WireFormat, Protocol<GatewayError>>>;

/**
 * The client's headers a provider may want, as a request (and a stored background request)
 * keeps them: its `anthropic-version` (or `vendor-version`) and a messages client's
 * `anthropic-beta`.
 */
export interface UpstreamCallOptions {
  anthropicVersion?: string;
  anthropicBeta?: string;
}

/** The kept client headers under their own names, for `Protocol.headers`. */
export const forwardedHeaders = (options: UpstreamCallOptions): ForwardedHeaders => ({
  "anthropic-version": options.anthropicVersion,
  "anthropic-beta": options.anthropicBeta,
});
