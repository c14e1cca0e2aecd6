/**
 * A private stand-in for the two `@interlingua/sse` functions the stream laws need (that package
 * was still empty while this one was written), following its agreed API: SSE text for one event,
 * and bytes (split anywhere, `\n`, `\r\n` or `\r` line ends) back to events. Test-only.
 */
import type { SseMessage } from "@interlingua/core-types";

export function encodeSseEvent(message: SseMessage): string {
  let out = "";
  if (message.event !== undefined) out += `event: ${message.event}\n`;
  if (message.id !== undefined) out += `id: ${message.id}\n`;
  for (const line of message.data.split("\n")) out += `data: ${line}\n`;
  return `${out}\n`;
}

export function decodeSse(): TransformStream<Uint8Array | string, SseMessage> {
  const decoder = new TextDecoder();
  let buffer = "";
  let event: string | undefined;
  let id: string | undefined;
  let data: string[] = [];
  const dispatch = (controller: TransformStreamDefaultController<SseMessage>) => {
    if (data.length > 0) {
      const message: SseMessage = { data: data.join("\n") };
      if (event !== undefined) message.event = event;
      if (id !== undefined) message.id = id;
      controller.enqueue(message);
    }
    event = undefined;
    data = [];
  };
  const lines = (controller: TransformStreamDefaultController<SseMessage>, final: boolean) => {
    for (;;) {
      const end = buffer.search(/\r\n|\r|\n/);
      if (end < 0) break;
      // A lone \r at the very end may be the first half of \r\n.
      if (buffer[end] === "\r" && end === buffer.length - 1 && !final) break;
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + (buffer.startsWith("\r\n", end) ? 2 : 1));
      if (line === "") {
        dispatch(controller);
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "data") data.push(value);
      else if (field === "event") event = value;
      else if (field === "id") id = value;
    }
  };
  return new TransformStream({
    transform(chunk, controller) {
      buffer += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
      lines(controller, false);
    },
    flush(controller) {
      buffer += decoder.decode();
      lines(controller, true);
      if (buffer !== "") {
        buffer += "\n";
        lines(controller, true);
      }
      dispatch(controller);
    },
  });
}
