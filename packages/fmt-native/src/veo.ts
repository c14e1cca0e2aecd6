// Veo long-running operations and Gemini image output on the Gemini protocol, at the explicit
// subpath `@interlingua/fmt-native/veo`.
export * from "./veo/gemini-image-api.js";
export * from "./veo/gemini-image-size.js";
export * from "./veo/parse-gemini-image-response.js";
export * from "./veo/parse-veo-operation.js";
export * from "./veo/render-gemini-image-request.js";
export * from "./veo/render-veo-request.js";
export * from "./veo/veo-api.js";
export * from "./veo/veo-paths.js";
export type * from "./veo/veo-request.js";
export * from "./veo/veo-values.js";
