// Internals other @interlingua packages and the gateway share: helpers and constants below the
// documented surface. Not covered by semver: any minor release may change or remove them.
export { imageMediaTypes } from "./image-url.js";
export { formatPath, invalidRequestFromZod } from "./invalid-request-from-zod.js";
export {
  parseInterlinguaResponsesFinishReason,
  parseResponsesFinishReason,
  renderInterlinguaResponsesFinishReason,
  renderResponsesFinishReason,
} from "./map-responses-finish-reason.js";
export { effortToThinking } from "./map-responses-options.js";
export { defaultRemoteMcpTimeoutSeconds } from "./map-responses-tools.js";
