import type { JsonObject } from "../core/json.ts";
import type { VeoJob } from "./veo-request.ts";
import { type VideoFile, videoFileId, videoUri } from "./video-files.ts";

// One Veo operation: when it is done (polls and time), how far along it says it is, and what it
// ends with — videos, an error (`[[fail]]`) or a safety block (`[[safety]]`, `[[safety:N]]`,
// `[[safety:REASON]]`).

export const OPERATION_METADATA_TYPE =
  "type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningMetadata";
export const OPERATION_RESPONSE_TYPE =
  "type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse";

export const FAILED_MESSAGE = "Video generation failed (simulated).";
export const SAFETY_REASON =
  "Your prompt or image was blocked by the simulated safety filter. You have not been charged. Support codes: 58061214";

export type Operation = {
  name: string;
  createdAt: number;
  polls: number;
  pendingPolls: number;
  pendingMs: number;
  job: VeoJob;
  /** Every sample the job asked for; the blocked ones are dropped from the answer. */
  videos: VideoFile[];
};

export function newOperation(
  name: string,
  job: VeoJob,
  timing: { now: number; pendingPolls: number; pendingMs: number },
): Operation {
  const videos = Array.from({ length: job.samples }, (_, i) => ({
    id: videoFileId(name, i),
    seconds: job.seconds,
    aspectRatio: job.aspectRatio,
    resolution: job.resolution,
    audio: job.audio,
    createdAt: timing.now,
  }));
  return {
    name,
    createdAt: timing.now,
    polls: 0,
    pendingPolls: timing.pendingPolls,
    pendingMs: timing.pendingMs,
    job,
    videos,
  };
}

/** Done once polled more than `pendingPolls` times and `pendingMs` after it started. */
export function isDone(op: Operation, now: number): boolean {
  return op.polls > op.pendingPolls && now - op.createdAt >= op.pendingMs;
}

/**
 * Simulator-only progress (the real metadata carries none): the smaller of the share of polls
 * made and the share of time passed, in whole percent, at most 99 while pending.
 */
export function progressPercent(op: Operation, now: number): number {
  const byPolls = op.polls / (op.pendingPolls + 1);
  const byTime = op.pendingMs > 0 ? (now - op.createdAt) / op.pendingMs : 1;
  return Math.max(0, Math.min(99, Math.floor(100 * Math.min(byPolls, byTime))));
}

/** `[[safety]]` blocks every sample; `[[safety:N]]` N of them; `[[safety:REASON]]` all, with that reason. */
function blocked(op: Operation): { count: number; reason: string } | undefined {
  const argument = op.job.directives.safety;
  if (argument === undefined) return undefined;
  const n = /^\d+$/.test(argument) ? Number(argument) : undefined;
  return {
    count: Math.min(op.videos.length, n ?? op.videos.length),
    reason: n === undefined && argument !== "" ? argument : SAFETY_REASON,
  };
}

/** The videos a finished operation hands out (so the download route serves them). */
export function deliveredVideos(op: Operation): VideoFile[] {
  if (op.job.directives.fail) return [];
  return op.videos.slice(blocked(op)?.count ?? 0);
}

export function pendingBody(op: Operation, now: number): JsonObject {
  return {
    name: op.name,
    metadata: { "@type": OPERATION_METADATA_TYPE, progressPercent: progressPercent(op, now) },
    done: false,
  };
}

export function finishedBody(op: Operation, origin: string, version: string): JsonObject {
  if (op.job.directives.fail) {
    return { name: op.name, done: true, error: { code: 13, message: FAILED_MESSAGE } };
  }
  const block = blocked(op);
  const samples = deliveredVideos(op).map((video) => ({
    video: { uri: videoUri(origin, version, video.id) },
  }));
  const response = block
    ? {
        ...(samples.length > 0 ? { generatedSamples: samples } : {}),
        raiMediaFilteredCount: block.count,
        raiMediaFilteredReasons: [block.reason],
      }
    : { generatedSamples: samples };
  return {
    name: op.name,
    done: true,
    response: { "@type": OPERATION_RESPONSE_TYPE, generateVideoResponse: response },
  };
}
