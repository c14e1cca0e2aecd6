import { appendRequestId } from "./request-id-suffix.js";

/** A frame whose event is an error: named `error`, or data that opens as `{"type":"error"`. */
const ERROR_FRAME = /^(?:event:[ \t]*error\b|data:[ \t]*\{\s*"type"\s*:\s*"error")/m;
/** The first `message` member with its string value: the error object's own. */
const MESSAGE_MEMBER = /("message"\s*:\s*")((?:[^"\\]|\\.)*)"/;

/**
 * A relayed error event whose message ends with the gateway's request id, as the endpoint's
 * error bodies do (docs/api-reference.md: "message text ends with the request id"). Other frames,
 * and an error frame with no string message, are left as they are.
 */
export function withErrorRequestId(text: string, requestId: string | undefined): string {
  if (requestId === undefined || !ERROR_FRAME.test(text)) return text;
  return text.replace(MESSAGE_MEMBER, (_whole, head: string, message: string) => {
    // The suffix is added to the decoded text and written back as JSON string content.
    const decoded = JSON.parse(`"${message}"`) as string;
    return `${head}${JSON.stringify(appendRequestId(decoded, requestId)).slice(1)}`;
  });
}
