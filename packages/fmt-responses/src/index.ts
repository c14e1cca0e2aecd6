// The canonical types a user names when handling this codec's input and output.
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
export {
  imageMediaTypes,
  imageSourceFromUrl,
  imageUrlFromSource,
  isValidImageUrl,
} from "./image-url.js";
export { formatPath, invalidRequestFromZod } from "./invalid-request-from-zod.js";
export { errorFromResponsesWire, errorToResponsesWire } from "./map-responses-error.js";
export {
  finishReasonFromResult,
  finishReasonFromStatus,
  finishReasonToResult,
  finishReasonToTerminal,
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
  effortToThinking,
  responseFormatFromText,
  responseFormatToText,
  thinkingFromReasoning,
  toolChoiceFromResponses,
  toolChoiceToResponses,
} from "./map-responses-options.js";
export {
  defaultRemoteMcpTimeoutSeconds,
  toolFromResponses,
  toolToResponses,
} from "./map-responses-tools.js";
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
  renderResponsesApiRequest,
  toResponsesApiShape,
} from "./render-responses-api-request.js";
export { renderResponsesApiResponse } from "./render-responses-api-response.js";
export { renderResponsesRequest } from "./render-responses-request.js";
export { renderResponsesResponse } from "./render-responses-response.js";
export * from "./responses-api.js";
export { responsesApi } from "./responses-api-codec.js";
export * from "./responses-api-wire.js";
export { responses } from "./responses-codec.js";
export {
  responsesPassThroughShape,
  responsesRequestFields,
  untranslatedResponsesFields,
} from "./responses-request-fields.js";
export * from "./responses-stream-api.js";
export {
  decodeResponsesEvents,
  decodeResponsesStream,
  ResponsesStreamDecoder,
} from "./responses-stream-decoder.js";
export {
  encodeResponsesEvents,
  encodeResponsesStream,
  ResponsesStreamEncoder,
} from "./responses-stream-encoder.js";
