import type { Protocol } from "@interlingua/core-types";
import { type GatewayError, parseOpenAIError } from "@interlingua/errors";
import { CHAT_HINT_CACHE_CONTROL_AT } from "./chat-cache-control.js";
import { chatCachePlan } from "./chat-cache-plan.js";
import { chat } from "./chat-codec.js";
import { chatRequestFields, untranslatedChatFields } from "./chat-request-fields.js";
import { OPENAI_TOOL_NAME_RULE } from "./chat-tool-name.js";
import { joinToolCallTurns } from "./join-tool-call-turns.js";
import { readChatReplyUsage } from "./read-chat-reply-usage.js";

/** OpenAI's Chat Completions API: the `chat` client format and the `openai` channel protocol. */
export const chatProtocol: Protocol<GatewayError> = {
  format: "chat",
  upstream: "openai",
  codec: chat,
  upstreamCodec: chat,
  forwardsClientBody: true,
  requestFields: chatRequestFields,
  untranslatedFields: untranslatedChatFields,
  path: () => "/v1/chat/completions",
  probes: ["/v1/models"],
  headers: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
  toolNames: OPENAI_TOOL_NAME_RULE,
  hidesThoughts: false,
  usageOnRequest: true,
  replyUsage: readChatReplyUsage,
  severalOutputs: true,
  streamComments: true,
  cachePlan: chatCachePlan,
  prepare: joinToolCallTurns,
  hintCacheControlAt: CHAT_HINT_CACHE_CONTROL_AT,
  parseError: parseOpenAIError,
  vendor: "openai",
  operation: "chat",
  clientTools: false,
  // OpenAI's audio API is the one audio wire; images are its synchronous images endpoint.
  media: {
    audio: { speech: "/v1/audio/speech", transcriptions: "/v1/audio/transcriptions" },
    tasks: { image: "openai-images" },
  },
  // OpenAI reports streamed usage only when asked, and a gateway bills on it: it asks, and says
  // so, so that the client does not get a frame it did not ask for.
  forward: (client, model, stream) => {
    const options = (client["stream_options"] ?? {}) as Record<string, unknown>;
    const inject = stream && options["include_usage"] !== true;
    return {
      wire: inject
        ? { ...client, model, stream_options: { ...options, include_usage: true } }
        : { ...client, model },
      injectedUsage: inject,
    };
  },
};
