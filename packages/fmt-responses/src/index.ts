// The documented surface: the codec, its parse/render/stream functions and the tables the
// README describes. Wire schemas are at `./schemas`, shared internals at `./internal`.
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
export { imageSourceFromUrl, imageUrlFromSource, isValidImageUrl } from "./image-url.js";
export { errorFromResponsesWire, errorToResponsesWire } from "./map-responses-error.js";
export {
  incompleteReasonToUnified,
  type ResponsesStatus,
  type ResponsesTerminal,
  type ResultFinishReason,
  resultFinishReasonToUnified,
  statusToUnified,
  unifiedToResultFinishReason,
  unifiedToTerminal,
} from "./map-responses-finish-reason.js";
export {
  parseResponsesReasoning,
  parseResponsesTextFormat,
  parseResponsesToolChoice,
  renderResponsesTextFormat,
  renderResponsesToolChoice,
} from "./map-responses-options.js";
export { parseResponsesTool, renderResponsesTool } from "./map-responses-tools.js";
export {
  parseInterlinguaResponsesUsage,
  parseResponsesUsage,
  renderInterlinguaResponsesUsage,
  renderResponsesUsage,
} from "./map-responses-usage.js";
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
export { renderResponsesRequest, toResponsesShape } from "./render-responses-api-request.js";
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
export {
  responsesPassThroughShape,
  responsesRequestFields,
  untranslatedResponsesFields,
} from "./responses-request-fields.js";
export {
  type ItemPage,
  type ItemPageQuery,
  inputAsItems,
  itemType,
  pageItems,
  type ResolvedItems,
  referencedItemIds,
  resolveItemReferences,
  type StoredItem,
} from "./stored-items.js";
