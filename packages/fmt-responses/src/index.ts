// The documented surface: both codecs, their parse/render/stream functions and the in-stream
// error pair. The tables, field mappings and stored-item helpers the README lists are at
// `./tables`, wire schemas at `./schemas`, shared internals at `./internal`.
export type {
  Codec,
  Message,
  Part,
  RenderOptions,
  Request,
  Response,
  StreamEvent,
  Tool,
  Usage,
  Warning,
} from "@interlingua/core-types";
export { errorFromResponsesWire, errorToResponsesWire } from "./map-responses-error.js";
export type {
  ResponsesStatus,
  ResponsesTerminal,
  ResultFinishReason,
} from "./map-responses-finish-reason.js";
export { parseResponsesResponse } from "./parse-responses-api-response.js";
export { parseResponsesRequest } from "./parse-responses-request.js";
export {
  parseInterlinguaResponsesResponse,
  parseResponsesObject,
} from "./parse-responses-response.js";
export {
  decodeResponsesEvents,
  decodeResponsesStream,
  ResponsesStreamDecoder,
} from "./parse-responses-stream.js";
export { renderResponsesRequest } from "./render-responses-api-request.js";
export { renderResponsesResponse } from "./render-responses-api-response.js";
export { renderInterlinguaResponsesRequest } from "./render-responses-request.js";
export { renderInterlinguaResponsesResponse } from "./render-responses-response.js";
export {
  encodeResponsesEvents,
  encodeResponsesStream,
  ResponsesStreamEncoder,
} from "./render-responses-stream.js";
// `responses` is OpenAI's real Responses API; `interlinguaResponses` is docs/api-reference.md's
// shape, whose result is chat-like (`choices[]`).
export { responses } from "./responses-api-codec.js";
export { interlinguaResponses } from "./responses-codec.js";
export type {
  ItemPage,
  ItemPageQuery,
  ResolvedItems,
  StoredItem,
} from "./stored-items.js";
