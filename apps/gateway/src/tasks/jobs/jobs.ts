import type { JobKind } from "../../storage/task-record.ts";
import { geminiImagesJob } from "./gemini-images-job.ts";
import type { Job } from "./job.ts";
import { openaiImagesJob } from "./openai-images-job.ts";
import { veoJob } from "./veo-job.ts";

/** Each job by the wire name protocols declare it under (`Protocol.media.tasks`). */
export const JOBS: Record<JobKind, Job> = {
  veo: veoJob,
  "openai-images": openaiImagesJob,
  "gemini-images": geminiImagesJob,
};
