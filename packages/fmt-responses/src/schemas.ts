// The wire formats as zod schemas and their inferred types: what the codec validates against.
// Exported for validating or typing raw provider JSON; the shapes follow the provider's API.
export * from "./responses-api.js";
export * from "./responses-api-wire.js";
export * from "./responses-stream-api.js";
export * from "./responses-stream-events.js";
