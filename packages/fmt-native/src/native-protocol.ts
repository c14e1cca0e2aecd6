import type { Protocol } from "@interlingua/core-types";
import type { GatewayError } from "@interlingua/errors";
import { NATIVE_HINT_CACHE_CONTROL_AT } from "./misplaced-cache-control.js";
import { nativeCachePlan } from "./native-cache-plan.js";
import { native } from "./native-codec.js";
import { nativeRequestFields, untranslatedNativeFields } from "./native-request-fields.js";
import { nativeTokenCount } from "./native-token-count.js";
import { NATIVE_TOOL_NAME_RULE } from "./native-tool-name.js";
import { parseGeminiError } from "./parse-gemini-error.js";
import { readNativeReplyUsage } from "./read-native-reply-usage.js";

/** Gemini's generateContent API: the `native` client format and the `gemini` channel protocol. */
export const nativeProtocol: Protocol<GatewayError> = {
  format: "native",
  upstream: "gemini",
  codec: native,
  upstreamCodec: native,
  forwardsClientBody: true,
  requestFields: nativeRequestFields,
  untranslatedFields: untranslatedNativeFields,
  path: (model, stream) =>
    `/v1beta/models/${encodeURIComponent(model)}:${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`,
  // Gemini-compatible servers without a models list (404) answer the cached contents list.
  probes: ["/v1beta/models?pageSize=1", "/v1beta/cachedContents?pageSize=1"],
  headers: (apiKey) => ({ "x-goog-api-key": apiKey }),
  toolNames: NATIVE_TOOL_NAME_RULE,
  // Gemini returns thought text only with `includeThoughts`.
  hidesThoughts: true,
  usageOnRequest: false,
  replyUsage: readNativeReplyUsage,
  severalOutputs: true,
  streamComments: false,
  cachePlan: nativeCachePlan,
  hintCacheControlAt: NATIVE_HINT_CACHE_CONTROL_AT,
  parseError: parseGeminiError,
  vendor: "gcp.gemini",
  operation: "generate_content",
  clientTools: false,
  tokenCount: nativeTokenCount,
  // Veo's long-running operations for videos; images come from generateContent itself.
  media: { tasks: { video: "veo", image: "gemini-images" } },
  // The model is in the path: a body `model` (which clients may send) could contradict it.
  forward: ({ model: _model, ...client }) => ({ wire: client, injectedUsage: false }),
};
