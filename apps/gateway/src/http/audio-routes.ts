import { toGatewayError } from "@interlingua/errors";
import type { Context, Hono } from "hono";
import { SPEECH_PATH, speechHandler } from "../audio/speech-handler.ts";
import { TRANSCRIPTIONS_PATH, transcriptionHandler } from "../audio/transcription-handler.ts";
import type { AppEnv } from "../contract/app-env.ts";
import { errorResponse } from "../contract/error-response.ts";
import type { GatewayServices } from "../services/gateway-services.ts";

/** docs/api-reference.md's audio endpoints: text to speech and transcription, in the standard error body. */
export function mountAudioRoutes(app: Hono<AppEnv>, services: GatewayServices): void {
  app.post(SPEECH_PATH, guarded(services, "speech", speechHandler(services)));
  app.post(
    TRANSCRIPTIONS_PATH,
    guarded(services, "transcriptions", transcriptionHandler(services)),
  );
}

/** A bug past the checks still answers in the endpoint's envelope (and is logged). */
function guarded(
  services: GatewayServices,
  endpoint: string,
  handle: (c: Context<AppEnv>) => Promise<Response>,
) {
  return async (c: Context<AppEnv>): Promise<Response> => {
    try {
      return await handle(c);
    } catch (error) {
      services.log.error(
        { requestId: c.get("requestId"), endpoint, err: error },
        "unhandled error",
      );
      return errorResponse("standard", toGatewayError(error), c.get("requestId"));
    }
  };
}
