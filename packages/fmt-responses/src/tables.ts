// The tables and mappings below the codecs: finish reasons, usage, tool, tool choice, reasoning
// and text format mappings, the `image_url` rule, the request field table, the spec-shape body
// conversion and the pure half of stored responses. Documented in the README and covered by
// semver like the main entry.
export { imageSourceFromUrl, imageUrlFromSource, isValidImageUrl } from "./image-url.js";
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
export { toResponsesShape } from "./render-responses-api-request.js";
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
export { isTerminalStreamEvent, terminalStreamEvent } from "./stream-resume.js";
