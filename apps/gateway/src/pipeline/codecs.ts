import type { Codec, WireFormat } from "@interlingua/core-types";
import { chat } from "@interlingua/fmt-chat";
import { messages } from "@interlingua/fmt-messages";
import { native } from "@interlingua/fmt-native";
import { interlinguaResponses } from "@interlingua/fmt-responses";

/**
 * The four client formats (each upstream protocol names its own codec: upstream-protocols.ts).
 * `responses` under the spec envelope is docs/api-reference.md's shape (client-codec.ts picks
 * OpenAI's for bare bodies).
 */
export const CODECS: Record<WireFormat, Codec> = {
  chat,
  responses: interlinguaResponses,
  messages,
  native,
};
