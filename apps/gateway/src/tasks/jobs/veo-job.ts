import {
  type InlineImage,
  parseVeoOperation,
  renderVeoRequest,
  toVeoPersonGeneration,
  toVeoResizeMode,
  toVeoResolution,
  type VeoRequest,
  veoOperationPath,
  veoPredictPath,
} from "@interlingua/fmt-native/veo";
import type { OfficialVideoRequest, StandardVideoRequest } from "@interlingua/tasks";
import { fetchSourceImage } from "../fetch-source-image.ts";
import { fallbackVideoRoute } from "../task-route.ts";
import { callJson, openDownload } from "../upstream-call.ts";
import { failureStep, type Job, type JobContext, type MediaBytes, type Step } from "./job.ts";

// Veo on the Gemini API: `:predictLongRunning` starts an operation, `GET /v1beta/{name}` polls
// it, and the finished operation names video URIs that are downloaded with the channel's key.
// Standard, official and remix requests differ only in the neutral VeoRequest built here.

/** The API reference: each input image at most 10 MB. */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

interface RemixInput {
  readonly prompt: string;
  readonly aspectRatio?: "16:9" | "9:16";
  readonly resolution: string;
  readonly sourceVideo: string;
}

type Input =
  | StandardVideoRequest
  | OfficialVideoRequest
  | (RemixInput & { readonly variant?: undefined });

type Built = { ok: true; request: VeoRequest } | { ok: false; message: string };

async function images(context: JobContext, urls: readonly string[]) {
  const out: InlineImage[] = [];
  for (const url of urls) {
    const fetched = await fetchSourceImage(context.services, url, MAX_IMAGE_BYTES);
    if (!fetched.ok) return { ok: false as const, message: fetched.message };
    out.push(fetched.image);
  }
  return { ok: true as const, images: out };
}

const resolution = (value: string) => toVeoResolution(value);

async function buildStandard(context: JobContext, input: StandardVideoRequest): Promise<Built> {
  const fetched = await images(context, input.imageUrls);
  if (!fetched.ok) return fetched;
  const [first, second] = fetched.images;
  const request: VeoRequest = { prompt: input.prompt, durationSeconds: input.duration };
  const res = resolution(input.resolution);
  if (res !== undefined) request.resolution = res;
  if (input.aspectRatio !== undefined) request.aspectRatio = input.aspectRatio;
  if (input.generationType === "reference") request.referenceImages = fetched.images;
  else {
    if (first !== undefined) request.image = first;
    if (second !== undefined) request.lastFrame = second;
  }
  return { ok: true, request };
}

async function buildOfficial(context: JobContext, input: OfficialVideoRequest): Promise<Built> {
  const urls = [input.firstFrameImage, input.lastFrameImage].filter(
    (u): u is string => u !== undefined,
  );
  const fetched = await images(context, urls);
  if (!fetched.ok) return fetched;
  const [first, last] = fetched.images;
  const request: VeoRequest = {
    prompt: input.prompt,
    aspectRatio: input.aspectRatio,
    durationSeconds: input.duration,
    sampleCount: input.sampleCount,
    enhancePrompt: input.enhancePrompt,
  };
  const res = resolution(input.resolution);
  if (res !== undefined) request.resolution = res;
  const person = toVeoPersonGeneration(input.personGeneration);
  if (person !== undefined) request.personGeneration = person;
  if (input.negativePrompt !== undefined) request.negativePrompt = input.negativePrompt;
  if (input.seed !== undefined) request.seed = input.seed;
  if (input.generateAudio !== undefined) request.generateAudio = input.generateAudio;
  if (first !== undefined) {
    request.image = first;
    const mode = input.resizeMode === undefined ? undefined : toVeoResizeMode(input.resizeMode);
    if (mode !== undefined) request.resizeMode = mode;
  }
  if (last !== undefined) request.lastFrame = last;
  return { ok: true, request };
}

function buildRemix(input: RemixInput): Built {
  const request: VeoRequest = { prompt: input.prompt, video: { uri: input.sourceVideo } };
  const res = resolution(input.resolution);
  if (res !== undefined) request.resolution = res;
  if (input.aspectRatio !== undefined) request.aspectRatio = input.aspectRatio;
  return { ok: true, request };
}

function build(context: JobContext): Promise<Built> | Built {
  const input = context.record.input as unknown as Input;
  if (input.variant === "standard") return buildStandard(context, input);
  if (input.variant === "official") return buildOfficial(context, input);
  return buildRemix(input);
}

async function startOn(
  context: JobContext,
  request: VeoRequest,
  candidate: JobContext["candidate"],
): Promise<Step> {
  const reply = await callJson(context.services.agent, candidate.channel, {
    method: "POST",
    path: veoPredictPath(candidate.upstreamModel),
    body: renderVeoRequest(request),
  });
  if (!reply.ok) return failureStep(reply);
  try {
    const operation = parseVeoOperation(reply.value);
    return {
      kind: "wait",
      upstream: { operation: operation.name },
      progress: 1,
      channel: candidate.channel.name,
    };
  } catch (error) {
    return { kind: "retry", message: (error as Error).message };
  }
}

/** Elapsed share of the estimate, when the upstream reports no progress of its own. */
function estimatedProgress(context: JobContext): number {
  const elapsed =
    (context.services.now() - (context.row.startedAt ?? context.row.createdAt)) / 1000;
  const share = elapsed / Math.max(1, context.row.estimatedTime);
  return Math.min(90, Math.max(1, Math.round(5 + 85 * share)));
}

export const veoJob: Job = {
  output: "video",

  async start(context) {
    const built = await build(context);
    if (!built.ok) return { kind: "failed", code: "source_fetch_failed", message: built.message };
    const step = await startOn(context, built.request, context.candidate);
    const input = context.record.input as { officialFallback?: boolean; canonicalModel?: string };
    if (step.kind === "wait" || input.officialFallback !== true) return step;
    // official_fallback: the official model takes over when the standard route cannot start.
    const fallback = fallbackVideoRoute(
      context.services,
      `${input.canonicalModel ?? context.record.gatewayModel}-official`,
    );
    if (fallback === undefined) return step;
    context.services.log.info(
      { task: context.row.id, channel: fallback.channel.name },
      "video task falls back to the official model",
    );
    return startOn(context, built.request, fallback);
  },

  async poll(context) {
    const name = context.handle.operation;
    if (name === undefined) return { kind: "failed", code: "generation_failed" };
    let path: string;
    try {
      path = veoOperationPath(name);
    } catch (error) {
      return { kind: "failed", code: "invalid_upstream_result", message: (error as Error).message };
    }
    const reply = await callJson(context.services.agent, context.candidate.channel, {
      method: "GET",
      path,
    });
    if (!reply.ok) return failureStep(reply);
    let operation: ReturnType<typeof parseVeoOperation>;
    try {
      operation = parseVeoOperation(reply.value);
    } catch (error) {
      return { kind: "retry", message: (error as Error).message };
    }
    if (!operation.done) {
      return {
        kind: "wait",
        upstream: context.handle,
        progress: operation.progress ?? estimatedProgress(context),
      };
    }
    if (operation.error !== undefined) {
      return { kind: "failed", code: "generation_failed", message: operation.error.message };
    }
    if (operation.videos.length === 0) {
      if (operation.blocked !== undefined) {
        return {
          kind: "failed",
          code: "content_policy_violation",
          message: operation.blocked.reasons.join("; "),
        };
      }
      return { kind: "failed", code: "invalid_upstream_result", message: "no video in the result" };
    }
    return {
      kind: "ready",
      upstream: { ...context.handle, videos: operation.videos.map((v) => v.uri) },
    };
  },

  // Opened one at a time as the store reads them: a video streams from the upstream into the
  // file store, size-capped there.
  async collect(context) {
    const media: MediaBytes[] = (context.handle.videos ?? []).map((uri) => ({
      open: () => openDownload(context.services.agent, uri, context.candidate.channel),
    }));
    return { kind: "results", media };
  },
};
