// The wire formats as zod schemas and their inferred types: what the codec validates against.
// Exported for validating or typing raw provider JSON; the shapes follow the provider's API.
export * from "./messages-api.js";
// The gateway's own error envelope for the messages endpoint (docs/api-reference.md, Errors).
export {
  type AnthropicErrorBody,
  anthropicErrorBodySchema,
  type MessagesErrorEnvelope,
  messagesErrorEnvelopeSchema,
  type ServiceErrorBody,
  serviceErrorBodySchema,
} from "./messages-error-envelope.js";
export { type MessagesErrorType, messagesErrorTypeSchema } from "./messages-error-type.js";
export * from "./messages-stream-api.js";
