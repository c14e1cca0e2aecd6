// The wire formats as zod schemas and their inferred types: what the codec validates against.
// Exported for validating or typing raw provider JSON; the shapes follow the provider's API.
export * from "./native-api.js";
// The body that creates a Gemini context cache (`POST /v1beta/cachedContents`).
export {
  geminiCacheTtls,
  type NativeCachedContentCreate,
  nativeCachedContentCreateSchema,
} from "./native-cached-content.js";
// The gateway's own error envelope for the native endpoints (docs/api-reference.md, Errors).
export { type NativeErrorEnvelope, nativeErrorEnvelopeSchema } from "./native-error-envelope.js";
export { type NativeStatus, nativeStatusSchema } from "./native-status.js";
