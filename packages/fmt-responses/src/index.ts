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
  responseFormatFromText,
  responseFormatToText,
  thinkingFromReasoning,
  toolChoiceFromResponses,
  toolChoiceToResponses,
} from "./map-responses-options.js";
export { toolFromResponses, toolToResponses } from "./map-responses-tools.js";
export {
  usageFromResponses,
  usageFromResult,
  usageToResponses,
  usageToResult,
} from "./map-responses-usage.js";
export {
  normalizeResponsesApiRequest,
  normalizeResponsesApiResponse,
} from "./normalize-responses-api.js";
export { normalizeResponsesRequest } from "./normalize-responses-request.js";
export { normalizeResponsesResponse } from "./normalize-responses-response.js";
export { parseResponsesApiRequest } from "./parse-responses-api-request.js";
export { parseResponsesApiResponse } from "./parse-responses-api-response.js";
export { parseResponsesRequest } from "./parse-responses-request.js";
export { parseResponsesObject, parseResponsesResponse } from "./parse-responses-response.js";
export {
  decodeResponsesEvents,
  decodeResponsesStream,
  ResponsesStreamDecoder,
} from "./parse-responses-stream.js";
export { renderResponsesApiRequest, toResponsesApiShape } from "./render-responses-api-request.js";
export { renderResponsesApiResponse } from "./render-responses-api-response.js";
export { renderResponsesRequest } from "./render-responses-request.js";
export { renderResponsesResponse } from "./render-responses-response.js";
export {
  encodeResponsesEvents,
  encodeResponsesStream,
  ResponsesStreamEncoder,
} from "./render-responses-stream.js";
export { responsesApi } from "./responses-api-codec.js";
export { responses } from "./responses-codec.js";
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
