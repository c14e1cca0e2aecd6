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
export { carryThinkingSignatures, restoreCarriedThinking } from "./carried-thinking.js";
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
export { native } from "./native-codec.js";
export {
  type NativeErrorEnvelope,
  parseNativeError,
  renderNativeError,
} from "./native-error-envelope.js";
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
export { googleStatusOfReason, parseGeminiError } from "./parse-gemini-error.js";
export { type ParseNativeRequestOptions, parseNativeRequest } from "./parse-native-request.js";
export { parseNativeResponse } from "./parse-native-response.js";
export { decodeNativeStream, NativeStreamDecoder } from "./parse-native-stream.js";
export { PartialArgsJsonWriter, parseJsonPath } from "./partial-args-json-writer.js";
export {
  type NativeUpstreamRequest,
  renderNativeRequest,
  renderNativeUpstreamRequest,
} from "./render-native-request.js";
export { renderNativeResponse } from "./render-native-response.js";
export { encodeNativeStream, NativeStreamEncoder } from "./render-native-stream.js";
export {
  nativeJsonSchemaKeywords,
  sanitizeNativeJsonSchema,
} from "./sanitize-native-json-schema.js";
export {
  nativeSchemaKeywords,
  type SchemaSanitizeStep,
  sanitizeNativeSchema,
} from "./sanitize-native-schema.js";
