import type { Codec } from "@interlingua/core-types";
import type { NativeRequestWire, NativeResponseWire } from "./native-api.js";
import { parseNativeRequest } from "./parse-native-request.js";
import { parseNativeResponse } from "./parse-native-response.js";
import { decodeNativeStream, NativeStreamDecoder } from "./parse-native-stream.js";
import { renderNativeRequest } from "./render-native-request.js";
import { renderNativeResponse } from "./render-native-response.js";
import { encodeNativeStream, NativeStreamEncoder } from "./render-native-stream.js";

/**
 * The generate-content codec. `request.parse` takes a body that may carry `model` (the gateway
 * passes the URL path's model and method through `parseNativeRequest(body, {model, stream})`);
 * `request.render` returns the body for the upstream (`renderNativeUpstreamRequest` adds the path).
 */
export const native: Codec<NativeRequestWire, NativeResponseWire> = {
  format: "native",
  request: {
    parse: (wire) => parseNativeRequest(wire),
    render: renderNativeRequest,
  },
  response: {
    parse: parseNativeResponse,
    render: renderNativeResponse,
  },
  stream: {
    decode: decodeNativeStream,
    encode: encodeNativeStream,
    decoder: () => new NativeStreamDecoder(),
    encoder: (options) => new NativeStreamEncoder(options),
    // No frame tap: Gemini's cumulative usage rides on every frame, and a later frame may carry
    // the final count, so a usage-and-finish reader decodes every frame.
    frames: undefined,
  },
};
