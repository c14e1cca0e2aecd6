// Internals the format packages share to read their providers' error bodies and write their own
// error envelopes: the one upstream-error builder, the body reader and the status helpers. Not
// covered by semver: any minor release may change or remove them.
export {
  errorStatusSchema,
  isClientErrorStatus,
  isErrorStatus,
  lookupStatus,
} from "./gateway-status.js";
export { looseErrorMessage } from "./loose-error-message.js";
export { bodyJson, type ReadBody, readBody } from "./read-body.js";
export { tableLookup } from "./table-lookup.js";
export { buildUpstreamError, type UpstreamErrorReading } from "./upstream-error.js";
