// OpenAI image generation (`POST /v1/images/generations`): wire schemas, the request render and
// parse, the reply parse, and the API reference's `size` -> an OpenAI size.
export * from "./openai-images-api.js";
export * from "./openai-images-request.js";
export * from "./openai-images-response.js";
export * from "./openai-images-size.js";
