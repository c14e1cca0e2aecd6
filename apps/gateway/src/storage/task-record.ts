import type { TaskRow } from "./task-store.ts";

// What the runtime keeps in a task row's `request` column: the validated request (the tasks
// package's output) and what billing and the usage row need later, when no HTTP request is
// around any more (a poll on another instance, or after a restart).

/**
 * The upstream jobs the gateway has, by the wire names protocols declare (`Protocol.media.tasks`);
 * stored with each task, so a name once used stays.
 */
export const JOB_KINDS = ["veo", "openai-images", "gemini-images"] as const;

/** Which upstream job carries the task out. */
export type JobKind = (typeof JOB_KINDS)[number];

/** The units the hold covers; the real charge is the same units for what was delivered. */
export interface HeldUnits {
  /** Video seconds to be generated (all samples). */
  readonly seconds?: number;
  /** Images to be generated. */
  readonly requests?: number;
  /** How many videos or images the hold counts (the real charge scales by what arrived). */
  readonly outputs: number;
}

export interface TaskRecord {
  readonly job: JobKind;
  /** The API reference endpoint that created it: `videos`, `remix` or `images` (usage rows). */
  readonly endpoint: "videos" | "remix" | "images";
  /** The gateway id the price and the route use (an alias's main id). */
  readonly gatewayModel: string;
  /** The upstream model id on the channel chosen at submit. */
  readonly upstreamModel: string;
  readonly tokenName: string;
  /** The submit request's id, carried into the usage rows of the charge or refund. */
  readonly requestId: string;
  readonly units: HeldUnits;
  /** The tasks package's parsed request (JSON-safe). */
  readonly input: Record<string, unknown>;
  /** The submitting request's span (W3C `traceparent`): task steps and pushes link to it. */
  readonly traceparent?: string;
}

export const taskRecord = (row: TaskRow): TaskRecord => row.request as TaskRecord;

/** The upstream handle a task keeps between polls (the `upstream` column). */
export interface UpstreamHandle {
  /** Veo: the long-running operation's name. */
  readonly operation?: string;
  /** Veo: the generated videos' upstream URIs, kept for download retries and remixes. */
  readonly videos?: readonly string[];
  /** OpenAI images: the upstream's usage object, for the synchronous ImagesResponse. */
  readonly imageUsage?: Readonly<Record<string, unknown>>;
}

export const upstreamHandle = (row: TaskRow): UpstreamHandle =>
  (row.upstream ?? {}) as UpstreamHandle;
