import type { StreamFraming } from "@interlingua/core-types";

/**
 * The JSON array that streamGenerateContent returns without `alt=sse`: `[` first element
 * `,\r\n` next element ... `]`, each element (a message's data: one GenerateContentResponse)
 * written as soon as it exists; an empty stream is `[]`. JSON has no comments, so an idle array
 * gets no keep-alive. One per stream: it remembers whether the array is open.
 */
export function nativeJsonArrayFraming(): StreamFraming {
  let opened = false;
  return {
    frame(message) {
      const text = (opened ? ",\r\n" : "[") + message.data;
      opened = true;
      return text;
    },
    close: () => (opened ? "]" : "[]"),
    keepAlive: () => undefined,
  };
}
