// The wire formats as zod schemas and their inferred types: what the codec validates against.
// Exported for validating or typing raw provider JSON; the shapes follow the provider's API.
export * from "./chat-api.js";
export * from "./chat-chunk-api.js";
