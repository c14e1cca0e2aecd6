import type { Codec } from "@interlingua/core-types";
import { parseNativeRequest } from "./convert-from-native-request.js";
import { parseNativeResponse } from "./convert-from-native-response.js";
import { renderNativeRequest } from "./convert-to-native-request.js";
import { renderNativeResponse } from "./convert-to-native-response.js";
import type { NativeRequestWire, NativeResponseWire } from "./native-api.js";
import { decodeNativeStream, NativeStreamDecoder } from "./native-stream-decoder.js";
import { encodeNativeStream, NativeStreamEncoder } from "./native-stream-encoder.js";

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
  },
};
