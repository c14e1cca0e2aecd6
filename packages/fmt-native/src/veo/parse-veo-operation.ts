import { capText, upstreamInvalid } from "./upstream-invalid.js";
import { VEO_MAX_SAMPLES, type VeoOperationWire, veoOperationSchema } from "./veo-api.js";

export interface VeoVideo {
  uri: string;
  mimeType?: string;
}

export interface VeoOperation {
  /** `models/{model}/operations/{id}`: what to poll. */
  name: string;
  done: boolean;
  /** 0..100, only when the operation's metadata carries a progress figure. */
  progress?: number;
  videos: VeoVideo[];
  /** Samples the upstream's safety filters withheld, with its reasons (texts as sent). */
  blocked?: { count: number; reasons: string[] };
  error?: { code: number; message: string; status?: string };
}

// Everything below comes from the upstream; sizes and texts are bounded before they reach a
// task row or a client.
export const VEO_LIMITS = {
  /** Videos kept from one operation: twice what one request may ask for. */
  videos: VEO_MAX_SAMPLES * 2,
  uri: 4096,
  mimeType: 100,
  reasons: 8,
  reason: 500,
  errorMessage: 2000,
  errorStatus: 64,
} as const;

/** Keys a progress figure has been seen under in operation metadata, first match wins. */
const progressKeys = ["progressPercent", "progressPercentage", "progress"] as const;

function progressOf(metadata: Record<string, unknown> | undefined): number | undefined {
  if (metadata === undefined) return undefined;
  for (const key of progressKeys) {
    const value = metadata[key];
    if (typeof value === "number" && Number.isFinite(value)) {
      return Math.min(100, Math.max(0, value));
    }
  }
  return undefined;
}

function videosOf(operation: VeoOperationWire): VeoVideo[] {
  const samples = operation.response?.generateVideoResponse?.generatedSamples ?? [];
  const videos: VeoVideo[] = [];
  for (const sample of samples) {
    if (videos.length >= VEO_LIMITS.videos) break;
    const uri = sample.video?.uri;
    // A sample without a usable link is skipped; the caller sees fewer videos than asked.
    if (uri === undefined || uri === "" || uri.length > VEO_LIMITS.uri) continue;
    const mimeType = sample.video?.encoding ?? sample.video?.mimeType;
    videos.push(
      mimeType === undefined || mimeType === ""
        ? { uri }
        : { uri, mimeType: capText(mimeType, VEO_LIMITS.mimeType) },
    );
  }
  return videos;
}

function blockedOf(operation: VeoOperationWire): VeoOperation["blocked"] {
  const response = operation.response?.generateVideoResponse;
  const reasons = (response?.raiMediaFilteredReasons ?? [])
    .slice(0, VEO_LIMITS.reasons)
    .map((reason) => capText(reason, VEO_LIMITS.reason));
  const count = response?.raiMediaFilteredCount ?? reasons.length;
  if (count === 0 && reasons.length === 0) return undefined;
  return { count: Math.max(count, reasons.length), reasons };
}

/**
 * An operation (the submit reply or a poll reply) -> what the task runner needs. An operation
 * that fails its schema is a 502; `done` missing means not done.
 */
export function parseVeoOperation(json: unknown): VeoOperation {
  const parsed = veoOperationSchema.safeParse(json);
  if (!parsed.success) throw upstreamInvalid(parsed.error, "Veo operation");
  const operation = parsed.data;
  const result: VeoOperation = {
    name: operation.name,
    done: operation.done === true,
    videos: videosOf(operation),
  };
  const progress = progressOf(operation.metadata);
  if (progress !== undefined) result.progress = progress;
  const blocked = blockedOf(operation);
  if (blocked !== undefined) result.blocked = blocked;
  if (operation.error !== undefined) {
    const { code, message, status } = operation.error;
    result.error = { code, message: capText(message ?? "", VEO_LIMITS.errorMessage) };
    if (status !== undefined) result.error.status = capText(status, VEO_LIMITS.errorStatus);
  }
  return result;
}
