import type { Codec, WireFormat } from "@interlingua/core-types";
import { chat } from "@interlingua/fmt-chat";
import { messages } from "@interlingua/fmt-messages";
import { native } from "@interlingua/fmt-native";
import { responses } from "@interlingua/fmt-responses";

/** The four client formats (each upstream protocol names its own codec: upstream-protocols.ts). */
export const CODECS: Record<WireFormat, Codec> = { chat, responses, messages, native };
