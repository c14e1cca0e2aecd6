// How a list of events becomes bytes on the wire, per protocol.

export type Frame = { event?: string; data: string };

export type Framing = {
  contentType: string;
  encode(frame: Frame, index: number): string;
  /** Bytes after the last frame, given how many frames were sent. */
  end(count: number): string;
};

/** OpenAI and Anthropic: `event:` line when the protocol names events, LF line endings. */
export const SSE: Framing = {
  contentType: "text/event-stream; charset=utf-8",
  encode: (frame) => `${frame.event ? `event: ${frame.event}\n` : ""}data: ${frame.data}\n\n`,
  end: () => "",
};

/** Gemini `?alt=sse`: data lines only, CRLF line endings. */
export const SSE_CRLF: Framing = {
  contentType: "text/event-stream",
  encode: (frame) => `data: ${frame.data}\r\n\r\n`,
  end: () => "",
};

/** Gemini streamGenerateContent without alt=sse: one JSON array, its elements sent as they come. */
export const JSON_ARRAY: Framing = {
  contentType: "application/json; charset=UTF-8",
  encode: (frame, index) => `${index === 0 ? "[" : ",\r\n"}${frame.data}`,
  end: (count) => (count === 0 ? "[]" : "]"),
};
