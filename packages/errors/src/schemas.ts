// The zod schemas of the error bodies and fields, with their inferred types. Covered by semver
// like the main entry; kept apart so that importing a renderer does not pull in zod schemas.
export { type BalanceErrorBody, balanceErrorBodySchema } from "./balance-envelope.js";
export {
  type GatewayErrorFields,
  gatewayErrorFieldsSchema,
  type UpstreamDiagnostics,
  upstreamDiagnosticsSchema,
} from "./gateway-error-schema.js";
export type { GatewayStatus } from "./gateway-status.js";
export { gatewayStatusSchema } from "./gateway-status-schema.js";
export { type StandardErrorBody, standardErrorBodySchema } from "./standard-envelope.js";
export { type UploadErrorBody, uploadErrorBodySchema } from "./upload-envelope.js";
