// The tables and helpers below the codec: finish reasons, usage, tool choice, thinking config,
// statuses, the request field table, the tool-name rule, generated call ids, schema sanitizers,
// part helpers and the JSON-array stream framing. Documented in the README and covered by
// semver like the main entry.
export {
  nativeFinishReasonTable,
  parseNativeFinishReason,
  renderNativeFinishReason,
  unifiedToNativeFinishReason,
} from "./map-native-finish-reason.js";
export {
  parseNativeThinkingConfig,
  renderNativeThinkingConfig,
} from "./map-native-thinking-config.js";
export {
  type NativeFunctionCalling,
  parseNativeToolChoice,
  renderNativeToolChoice,
} from "./map-native-tool-choice.js";
export { parseNativeUsage, renderNativeUsage } from "./map-native-usage.js";
export { aliasNativeRequest } from "./native-aliases.js";
export { parseFunctionResponse, renderFunctionResponse } from "./native-function-response.js";
export { nativeJsonArrayFraming } from "./native-json-array-frames.js";
export {
  nativeGenerationPassThroughShape,
  nativeRequestFields,
  untranslatedNativeFields,
} from "./native-request-fields.js";
export {
  httpStatusForNativeStatus,
  httpStatusOfNativeStatus,
  type NativeStatus,
  nativeStatuses,
  nativeStatusFor,
} from "./native-status.js";
export { generatedCallId, isGeneratedCallId } from "./native-tool-call-ids.js";
export { NATIVE_TOOL_NAME_RULE } from "./native-tool-name.js";
export { orderToolResults } from "./order-tool-results.js";
export { googleStatusOfReason } from "./parse-gemini-error.js";
export { PartialArgsJsonWriter, parseJsonPath } from "./partial-args-json-writer.js";
export {
  nativeJsonSchemaKeywords,
  sanitizeNativeJsonSchema,
} from "./sanitize-native-json-schema.js";
export {
  nativeSchemaKeywords,
  type SchemaSanitizeStep,
  sanitizeNativeSchema,
} from "./sanitize-native-schema.js";
