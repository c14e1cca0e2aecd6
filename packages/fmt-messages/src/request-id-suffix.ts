/**
 * docs/api-reference.md: the messages endpoint's "message text ends with the request id". The suffix is the
 * only place the id travels in the body, so parsing strips exactly one to recover the message.
 */
const marker = " (request id: ";

export const appendRequestId = (message: string, requestId: string | undefined) =>
  requestId === undefined ? message : `${message}${marker}${requestId})`;

export const splitRequestId = (text: string): { message: string; requestId?: string } => {
  const at = text.lastIndexOf(marker);
  if (at < 0 || !text.endsWith(")")) return { message: text };
  return { message: text.slice(0, at), requestId: text.slice(at + marker.length, -1) };
};
