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
  type ParseNativeRequestOptions,
  parseNativeRequest,
} from "./convert-from-native-request.js";
export {
  createdFromCreateTime,
  parseNativeResponse,
} from "./convert-from-native-response.js";
export {
  type NativeUpstreamRequest,
  renderNativeRequest,
  renderNativeUpstreamRequest,
} from "./convert-to-native-request.js";
export { renderNativeResponse } from "./convert-to-native-response.js";
export {
  mapNativeFinishReason,
  nativeFinishReasonTable,
  renderNativeFinishReason,
  unifiedToNativeFinishReason,
} from "./map-native-finish-reason.js";
export {
  parseNativeThinkingConfig,
  renderNativeThinkingConfig,
} from "./map-native-thinking-config.js";
export {
  type NativeFunctionCalling,
  toolChoiceFromNative,
  toolChoiceToNative,
} from "./map-native-tool-choice.js";
export { parseNativeUsage, renderNativeUsage } from "./map-native-usage.js";
export { aliasNativeRequest } from "./native-aliases.js";
export * from "./native-api.js";
export { native } from "./native-codec.js";
export { bookkeepingKey, type NativeBookkeeping } from "./native-extras.js";
export { parseFunctionResponse, renderFunctionResponse } from "./native-function-response.js";
export {
  nativeGenerationPassThroughShape,
  nativeRequestFields,
  untranslatedNativeFields,
} from "./native-request-fields.js";
export { decodeNativeStream, NativeStreamDecoder } from "./native-stream-decoder.js";
export { encodeNativeStream, NativeStreamEncoder } from "./native-stream-encoder.js";
export { generatedCallId, isGeneratedCallId } from "./native-tool-call-ids.js";
export { normalizeNativeRequest, normalizeNativeResponse } from "./normalize-native.js";
export { orderToolResults } from "./order-tool-results.js";
export { PartialArgsJsonWriter, parseJsonPath } from "./partial-args-json-writer.js";
export {
  nativeJsonSchemaKeywords,
  sanitizeNativeJsonSchema,
} from "./sanitize-native-json-schema.js";
export {
  MAX_INLINED_REFS,
  nativeSchemaKeywords,
  type SchemaSanitizeStep,
  sanitizeNativeSchema,
} from "./sanitize-native-schema.js";
