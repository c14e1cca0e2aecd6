import type { Protocol } from "@interlingua/core-types";
import type { GatewayError } from "@interlingua/errors";
import { withoutForeignThinking, withoutForeignThinkingBlocks } from "./foreign-thinking.js";
import { threadNotHeld } from "./message-threads.js";
import { messagesCachePlan } from "./messages-cache-plan.js";
import { messages } from "./messages-codec.js";
import { messagesRequestFields, untranslatedMessagesFields } from "./messages-request-fields.js";
import { messagesTokenCount } from "./messages-token-count.js";
import { MESSAGES_TOOL_NAME_RULE } from "./messages-tool-name.js";
import { parseAnthropicError } from "./parse-anthropic-error.js";
import { readMessagesReplyUsage } from "./read-messages-reply-usage.js";
import { messagesRelayEdits } from "./relayed-stop-details.js";
import { withSignedToolTurn } from "./unsigned-tool-turn.js";

/** The API version sent when the client names none (`anthropic-version`). */
export const DEFAULT_ANTHROPIC_VERSION = "2023-06-01";

/** Anthropic's Messages API: the `messages` client format and the `anthropic` channel protocol. */
export const messagesProtocol: Protocol<GatewayError> = {
  format: "messages",
  upstream: "anthropic",
  codec: messages,
  upstreamCodec: messages,
  forwardsClientBody: true,
  requestFields: messagesRequestFields,
  untranslatedFields: untranslatedMessagesFields,
  untranslatable: threadNotHeld,
  path: () => "/v1/messages",
  // The client's API version and beta flags are its own choice of Anthropic's behaviour.
  probes: ["/v1/models?limit=1"],
  headers: (apiKey, forwarded = {}) => {
    const beta = forwarded["anthropic-beta"];
    return {
      "x-api-key": apiKey,
      "anthropic-version": forwarded["anthropic-version"] ?? DEFAULT_ANTHROPIC_VERSION,
      ...(beta === undefined ? {} : { "anthropic-beta": beta }),
    };
  },
  toolNames: MESSAGES_TOOL_NAME_RULE,
  hidesThoughts: false,
  usageOnRequest: false,
  replyUsage: readMessagesReplyUsage,
  severalOutputs: false,
  streamComments: true,
  relayEdits: messagesRelayEdits,
  cachePlan: messagesCachePlan,
  parseError: parseAnthropicError,
  vendor: "anthropic",
  operation: "chat",
  clientTools: false,
  tokenCount: messagesTokenCount,
  forward: (client, model, _stream, onWarning) => ({
    wire: withSignedToolTurn(
      withoutForeignThinkingBlocks({ ...client, model }, onWarning),
      onWarning,
    ),
    injectedUsage: false,
  }),
  prepare: withoutForeignThinking,
};
