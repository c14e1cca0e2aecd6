// The documented surface (README "API"): decoding, encoding and translating SSE, the relay
// splitter and framing, the terminator and keep-alives. The zod schema of an event is at
// `./schemas`, so the main entry does not load zod.
export { decodeSse } from "./decode-sse.js";
export { decodeSseText } from "./decode-sse-text.js";
export { DONE, doneEvent, isDone } from "./done.js";
export { encodeSse } from "./encode-sse.js";
export {
  type EncodeSseOptions,
  encodeSseEvent,
  type SseLineEnding,
} from "./encode-sse-event.js";
export type { DecodeSseOptions } from "./event-parser.js";
export type { SseComment, SseEvent, SseFrame } from "./sse-event.js";
export { isSseEvent, sseEventProblem } from "./sse-event-problem.js";
export { sseFraming } from "./sse-framing.js";
export {
  createSseSplitter,
  SseBufferOverflowError,
  type SseSplitter,
  type SseSplitterOptions,
} from "./sse-splitter.js";
export {
  createSseTranslator,
  type PushTransformer,
  type SseTranslator,
  type SseTranslatorOptions,
} from "./sse-translator.js";
export type { StreamPosition } from "./stream-position.js";
export { type TranslateSseOptions, translateSse } from "./translate-sse.js";
export { withKeepAlive } from "./with-keep-alive.js";
