// Internals other @interlingua packages and the gateway share: helpers and constants below the
// documented surface. Not covered by semver: any minor release may change or remove them.
export { isHttpUrl } from "./chat-data-uri.js";
export {
  chatReasoningDetailSchema,
  chatThinkingBlockSchema,
  parseReasoningDetails,
  renderReasoningDetails,
} from "./chat-reasoning-details.js";
export { isFinishReasonMapped } from "./map-chat-finish-reason.js";
export { usageFieldsChatDrops } from "./map-chat-usage.js";
export { chatMaxStopSequences } from "./render-chat-request.js";
