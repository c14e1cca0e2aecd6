export {
  FAILURE_CODES,
  FAILURE_MESSAGES,
  FAILURE_TYPES,
  type FailureCode,
  failureError,
  isFailureCode,
  localizeMessage,
} from "./failure-messages.js";
export {
  IMAGE_MODELS,
  type ImageModel,
  type ImageRequest,
  type ImageSize,
  MAX_IMAGE_URLS,
  parseImageRequest,
  parseImageSize,
} from "./image-request.js";
export { LANGUAGES, type Language, normalizeLanguage } from "./language.js";
export {
  httpUrlProblem,
  urlExtension,
  VIDEO_IMAGE_EXTENSIONS,
  videoImageUrlProblem,
} from "./media-url.js";
export { isPrivateAddress } from "./private-address.js";
export { parseRemixRequest, type RemixRequest, type RemixSource } from "./remix-request.js";
export { renderSubmission, type SubmissionAck } from "./render-submission.js";
export { type RenderTaskOptions, renderTask, type TaskSnapshot } from "./render-task.js";
export {
  estimatedTimeSeconds,
  generatedSeconds,
  IMAGE_ESTIMATED_SECONDS,
  REMIX_GENERATED_SECONDS,
} from "./task-estimates.js";
export {
  type MediaResult,
  mediaResultSchema,
  type TaskError,
  type TaskResource,
  type TaskResult,
  taskErrorSchema,
  taskResourceSchema,
  taskResultSchema,
} from "./task-resource.js";
export { canTransition, taskTransitions } from "./task-state-machine.js";
export {
  isTaskStatus,
  isTerminal,
  type TaskKind,
  type TaskStatus,
  taskKinds,
  taskStatuses,
  taskStatusSchema,
} from "./task-status.js";
export {
  canonicalVideoModel,
  isOfficialVideoModel,
  isStandardVideoModel,
  isVideoModel,
  OFFICIAL_VIDEO_MODELS,
  type OfficialVideoModel,
  REMIX_MODELS,
  STANDARD_VIDEO_MODELS,
  type StandardVideoModel,
  type VideoModel,
} from "./video-models.js";
export {
  type AspectRatio,
  type GenerationType,
  inferGenerationType,
  MAX_VIDEO_IMAGE_URLS,
  type OfficialVideoRequest,
  officialVideoRules,
  parseVideoRequest,
  type RequestRule,
  SEED_MAX,
  type StandardVideoRequest,
  standardVideoRules,
  type VideoRequest,
} from "./video-request.js";
export {
  type DeliveryAttempt,
  type DeliveryStep,
  nextDeliveryStep,
  pushesOn,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_TIMEOUT_MS,
} from "./webhook-retry.js";
export {
  type CallbackUrlOptions,
  type CallbackUrlVerdict,
  callbackUrl,
  checkCallbackUrl,
  WEBHOOK_PORTS,
} from "./webhook-url.js";
