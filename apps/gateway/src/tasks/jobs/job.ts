import type { GatewayError } from "@interlingua/errors";
import type { FailureCode, ImageRequest } from "@interlingua/tasks";
import type { RouteCandidate } from "../../routing/model-router.ts";
import type { GatewayServices } from "../../services/gateway-services.ts";
import type { TaskRecord, UpstreamHandle } from "../../storage/task-record.ts";
import type { TaskRow } from "../../storage/task-store.ts";
import type { CallResult, OpenDownload } from "../upstream-call.ts";

/**
 * One result for the file store: its bytes in hand (images), or a download to open and stream
 * straight into the store (videos: tens of MB each, never held in memory whole).
 */
export type MediaBytes =
  | {
      readonly bytes: Buffer;
      /** What the upstream said; the bytes themselves are checked. */
      readonly contentType: string | undefined;
    }
  | { readonly open: () => Promise<CallResult<OpenDownload>> };

/** What one step of a job found; the runner turns it into a state change. */
export type Step =
  /** Started or still running: poll again later. */
  | {
      readonly kind: "wait";
      readonly upstream: UpstreamHandle;
      readonly progress?: number;
      /** The channel actually used (a fallback may pick another). */
      readonly channel?: string;
    }
  /** Done upstream, results still to download: the handle is kept first, then `collect` runs. */
  | { readonly kind: "ready"; readonly upstream: UpstreamHandle }
  /** The results' bytes; `usage`: the upstream's own usage object, when it reported one. */
  | {
      readonly kind: "results";
      readonly media: readonly MediaBytes[];
      readonly usage?: Readonly<Record<string, unknown>>;
    }
  /** A final failure, in our catalogue's terms; `message` is the upstream's own words. */
  | { readonly kind: "failed"; readonly code: FailureCode; readonly message?: string }
  /** Network trouble, 429, 5xx: the same step may work later (counted in attempts). */
  | { readonly kind: "retry"; readonly message: string };

export interface JobContext {
  readonly services: GatewayServices;
  readonly row: TaskRow;
  readonly record: TaskRecord;
  readonly handle: UpstreamHandle;
  readonly candidate: RouteCandidate;
}

/** One kind of upstream work: started once, polled until done, its results collected. */
export interface Job {
  /** The kind of result (bytes are checked against it): `video` (MP4) or `image`. */
  readonly output: "video" | "image";
  /**
   * What this upstream cannot do with an image request, refused when the task is submitted (a
   * 400) rather than failing the task later; undefined when it can.
   */
  refuseImage?(request: ImageRequest): GatewayError | undefined;
  start(context: JobContext): Promise<Step>;
  poll(context: JobContext): Promise<Step>;
  collect(context: JobContext): Promise<Step>;
}

/** A call failure as a step: transient ones are retried, the rest fail with the upstream's words. */
export const failureStep = (
  failure: { transient: boolean; message: string },
  code: FailureCode = "generation_failed",
): Step =>
  failure.transient
    ? { kind: "retry", message: failure.message }
    : { kind: "failed", code, message: failure.message };
