import type { Hono } from "hono";
import { SPEECH_PATH, speechHandler } from "../audio/speech-handler.ts";
import { TRANSCRIPTIONS_PATH, transcriptionHandler } from "../audio/transcription-handler.ts";
import type { AppEnv } from "../contract/app-env.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { requireKey } from "./require-key.ts";

/**
 * docs/api-reference.md's audio endpoints: text to speech and transcription, in the standard
 * error body (their path's: refusals and bugs alike answer through the app's error handler).
 */
export function mountAudioRoutes(app: Hono<AppEnv>, services: GatewayServices): void {
  const keyed = requireKey(services);
  app.post(SPEECH_PATH, keyed, speechHandler(services));
  app.post(TRANSCRIPTIONS_PATH, keyed, transcriptionHandler(services));
}
