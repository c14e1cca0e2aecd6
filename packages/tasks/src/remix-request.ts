import { invalidFromZod } from "@interlingua/errors";
import * as z from "zod/mini";
import { asyncFields, asyncFieldsShape, nonBlank, oneOfModels } from "./common-fields.js";
import type { Language } from "./language.js";
import { fieldError, requireObject } from "./request-error.js";
import type { TaskStatus } from "./task-status.js";
import { canonicalVideoModel, REMIX_MODELS } from "./video-models.js";
import type { AspectRatio } from "./video-request.js";

/** docs/api-reference.md "POST /v1/videos/{task_id}/remix", camel-cased with defaults applied. */
export interface RemixRequest {
  model: string;
  canonicalModel: string;
  prompt: string;
  /** true: only the extended part is returned. */
  raw: boolean;
  aspectRatio?: AspectRatio;
  resolution: "720p" | "1080p" | "4k";
  webhook?: string;
  language?: Language;
}

/** What remix needs to know of the task it continues (the gateway answers 404 for an unknown one). */
export interface RemixSource {
  model: string;
  status: TaskStatus;
}

const remixWireSchema = z.strictObject({
  model: z.enum(REMIX_MODELS, {
    error: oneOfModels(REMIX_MODELS, " (the model of the original video)"),
  }),
  prompt: nonBlank(),
  raw: z.exactOptional(z.boolean()),
  aspect_ratio: z.exactOptional(z.enum(["16:9", "9:16"])),
  resolution: z.exactOptional(z.enum(["720p", "1080p", "4k"])),
  ...asyncFieldsShape,
});

/**
 * A remix body -> RemixRequest, judged against its source task. The source must have completed
 * (a 400 naming `task_id`, the path parameter) and the model must be the source's, aliases
 * counting as the same model. Throws a 400 GatewayError naming the field.
 */
export function parseRemixRequest(body: unknown, source: RemixSource): RemixRequest {
  const parsed = remixWireSchema.safeParse(requireObject(body, "remix request"));
  if (!parsed.success) throw invalidFromZod(parsed.error, "remix request");
  const w = parsed.data;
  if (source.status !== "completed") {
    throw fieldError(
      "task_id",
      `the original video task must be completed before a remix (it is ${source.status})`,
    );
  }
  const canonicalModel = canonicalVideoModel(w.model);
  if (canonicalModel !== canonicalVideoModel(source.model)) {
    throw fieldError(
      "model",
      `must be the model of the original video (${source.model}) or its alias, not ${w.model}`,
    );
  }
  return {
    model: w.model,
    canonicalModel,
    prompt: w.prompt,
    raw: w.raw ?? false,
    ...(w.aspect_ratio === undefined ? {} : { aspectRatio: w.aspect_ratio }),
    resolution: w.resolution ?? "720p",
    ...asyncFields(w),
  };
}
