// The documented surface (README "API"): the request parsers, the Task resource renderer, the
// state machine, the webhook policy and the tables they use. The zod schemas of the resource are
// at `./schemas`; the URL and rule helpers below the parsers are not exported.
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
  IMAGE_QUALITIES,
  IMAGE_RESPONSE_FORMATS,
  IMAGE_STYLES,
  type ImageModel,
  type ImageQuality,
  type ImageRequest,
  type ImageResponseFormat,
  type ImageSize,
  type ImageStyle,
  MAX_IMAGE_URLS,
  MAX_IMAGES_PER_REQUEST,
  parseImageRequest,
} from "./image-request.js";
export { LANGUAGES, type Language, normalizeLanguage } from "./language.js";
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
export type {
  MediaResult,
  TaskError,
  TaskResource,
  TaskResult,
} from "./task-resource.js";
export { canTransition, taskTransitions } from "./task-state-machine.js";
export {
  isTaskStatus,
  isTerminal,
  type TaskKind,
  type TaskStatus,
  taskKinds,
  taskStatuses,
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
  MAX_VIDEO_IMAGE_URLS,
  type OfficialVideoRequest,
  parseVideoRequest,
  SEED_MAX,
  type StandardVideoRequest,
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
