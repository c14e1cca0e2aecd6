import type { StreamEvent } from "./stream-event.js";

/**
 * What a stream decoder ends with when its input stopped before the format's terminal event
 * (chat `finish_reason`/`[DONE]`, messages `message_stop`, Gemini `finishReason`, Responses
 * `response.completed`), an empty body included: a cut stream is an upstream failure, never a
 * finish, so every client format gets its own failure signal and billing counts it as cut.
 */
export const STREAM_CUT_MESSAGE = "The upstream stream ended before its finish";

export function streamCutEvent(): StreamEvent {
  return {
    type: "error",
    error: { status: 502, type: "bad_gateway", message: STREAM_CUT_MESSAGE },
  };
}

/** Whether an event is the cut error of `streamCutEvent` (the gateway's same-format relays). */
export const isStreamCut = (event: StreamEvent): boolean =>
  event.type === "error" && event.error.message === STREAM_CUT_MESSAGE;
