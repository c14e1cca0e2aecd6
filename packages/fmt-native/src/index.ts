// The documented surface: the codec, its parse/render/stream functions and the error envelope's
// pair. The tables, schema sanitizers and part helpers the README lists are at `./tables`, wire
// schemas at `./schemas`, shared internals at `./internal`.
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
export type { NativeFunctionCalling } from "./map-native-tool-choice.js";
export { native } from "./native-codec.js";
export {
  type NativeErrorEnvelope,
  parseNativeError,
  renderNativeError,
} from "./native-error-envelope.js";
export type { NativeStatus } from "./native-status.js";
export { parseGeminiError } from "./parse-gemini-error.js";
export { type ParseNativeRequestOptions, parseNativeRequest } from "./parse-native-request.js";
export { parseNativeResponse } from "./parse-native-response.js";
export { decodeNativeStream, NativeStreamDecoder } from "./parse-native-stream.js";
export {
  type NativeUpstreamRequest,
  renderNativeRequest,
  renderNativeUpstreamRequest,
} from "./render-native-request.js";
export { renderNativeResponse } from "./render-native-response.js";
export { encodeNativeStream, NativeStreamEncoder } from "./render-native-stream.js";
export type { SchemaSanitizeStep } from "./sanitize-native-schema.js";
