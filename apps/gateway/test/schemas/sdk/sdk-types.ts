// The answer types of the providers' own SDKs (dev dependencies of the gateway, pinned), which
// scripts/sdk-schemas.mjs turns into the JSON Schemas beside this file.
import type { Message, RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import type { GenerateContentResponse } from "@google/genai";

export type AnthropicMessage = Message;
export type AnthropicStreamEvent = RawMessageStreamEvent;
export type GeminiResponse = GenerateContentResponse;
