// The documented surface (README "API"): GatewayError, its constructors, the envelopes'
// renderers and parsers, the tables and the zod-issue wording. The zod schemas of the bodies are
// at `./schemas`: a bundler cannot drop an unused top-level `zObject(...)` (`z.object`).
export {
  type BalanceErrorBody,
  renderBalanceError,
} from "./balance-envelope.js";
export {
  badGateway,
  constructorsByStatus,
  type GatewayErrorExtras,
  internalError,
  invalidRequest,
  modelNotFound,
  notFound,
  payloadTooLarge,
  paymentRequired,
  permissionDenied,
  rateLimited,
  unauthenticated,
  unavailable,
} from "./constructors.js";
export { defaultMessageFor, defaultMessages } from "./default-message.js";
export {
  GatewayError,
  type GatewayErrorFields,
  type GatewayErrorInit,
  isGatewayError,
  type UpstreamDiagnostics,
} from "./gateway-error.js";
export {
  type GatewayStatus,
  gatewayStatuses,
  isGatewayStatus,
} from "./gateway-status.js";
export {
  FIELD_REQUIRED,
  type FieldPath,
  formatFieldPath,
  formatZodIssue,
  invalidField,
  invalidFromZod,
  malformedReplyFromZod,
} from "./invalid-from-zod.js";
export { openAIStatusOfKind, parseOpenAIError } from "./parse-openai-error.js";
export {
  type KeyRedactor,
  type KeyRedactorOptions,
  type KeyRedactorStream,
  keyRedactor,
} from "./redact-keys.js";
export { redactSecrets } from "./redact-secrets.js";
export {
  type ErrorBodies,
  type ErrorEnvelope,
  errorEnvelopes,
  renderError,
} from "./render-error.js";
export { parseDurationSeconds, parseRetryAfterHeader, retryAfterHeader } from "./retry-delay.js";
export {
  parseStandardError,
  renderStandardError,
  type StandardErrorBody,
} from "./standard-envelope.js";
export {
  type StandardErrorType,
  standardErrorTypeFor,
  standardErrorTypes,
} from "./standard-error-type.js";
export { toGatewayError } from "./to-gateway-error.js";
export {
  parseUploadError,
  renderUploadError,
  type UploadErrorBody,
} from "./upload-envelope.js";
export type { UpstreamErrorOptions } from "./upstream-error.js";
export { gatewayStatusForUpstream, gatewayStatusForUpstreamStatus } from "./upstream-status.js";
