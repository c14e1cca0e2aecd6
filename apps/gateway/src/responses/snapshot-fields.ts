import type { PushTransformer, SseMessage, StreamEvent } from "@interlingua/core-types";

// The lifecycle frames of a Responses stream carry the whole Response object; the gateway's own
// fields of it (`store`, `previous_response_id`, `background`) are added there, as OpenAI does.

const LIFECYCLE = /^\{"type":"response\.(created|in_progress|completed|incomplete|failed|queued)"/;

export function withSnapshotFields(
  encoder: PushTransformer<StreamEvent, SseMessage>,
  fields: Record<string, unknown>,
): PushTransformer<StreamEvent, SseMessage> {
  const patch =
    (emit: (message: SseMessage) => void) =>
    (message: SseMessage): void => {
      if (!LIFECYCLE.test(message.data)) {
        emit(message);
        return;
      }
      const frame = JSON.parse(message.data) as { response?: Record<string, unknown> };
      if (frame.response !== undefined) frame.response = { ...frame.response, ...fields };
      emit(frame.response === undefined ? message : { ...message, data: JSON.stringify(frame) });
    };
  return {
    push: (event, emit) => encoder.push(event, patch(emit)),
    end: (emit) => encoder.end(patch(emit)),
  };
}
