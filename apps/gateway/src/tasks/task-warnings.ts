import type { Warning } from "@interlingua/core-types";
import { dallEQualities, openAIImageSize } from "@interlingua/fmt-chat/media";
import {
  type ImageRequest,
  LANGUAGES,
  normalizeLanguage,
  type RemixRequest,
  type VideoRequest,
} from "@interlingua/tasks";
import { sizeText } from "./jobs/image-input.ts";
import type { TaskRoute } from "./task-route.ts";

// What a submit accepts but its upstream cannot honour, named so the client sees it in
// `x-interlingua-warnings` (or, strict, gets a 400 naming the field) instead of a quiet drop.
// Everything else these endpoints accept reaches Veo or the image upstream as asked: official
// `seed`, `generate_audio`, `negative_prompt`, `person_generation`, `resize_mode` and
// `enhance_prompt` are Veo parameters of the same meaning (tasks/jobs/veo-job.ts).

const dropped = (feature: string, message: string): Warning => ({
  type: "dropped",
  feature,
  message,
});

/**
 * `language` outside the API reference's ten (a region tag such as `zh-CN` included) never fails a submit
 * (the API reference); the task's messages then stay in English, which is said.
 */
export function languageWarnings(raw: unknown): Warning[] {
  if (raw === undefined || normalizeLanguage(raw) !== undefined) return [];
  return [dropped("language", `not one of ${LANGUAGES.join(", ")}; messages stay in English`)];
}

/** Veo makes MP4 only and the gateway converts nothing: `enable_gif: true` gets the MP4 alone. */
export function videoWarnings(request: VideoRequest): Warning[] {
  if (request.variant === "standard" && request.enableGif) {
    return [dropped("enable_gif", "no GIF is made; the result is the MP4 video only")];
  }
  return [];
}

/** Veo's extension returns the whole extended clip; nothing cuts the new part out of it. */
export function remixWarnings(request: RemixRequest): Warning[] {
  if (request.raw) {
    return [dropped("raw", "the result is the whole extended video, not only the extension")];
  }
  return [];
}

/**
 * Sizes the upstream does not have are refused at submit (http/task-routes.ts); one it has only
 * approximately is sent as its nearest size (OpenAI: three pixel sizes; Gemini: a ratio and a
 * 1K/2K/4K tier for pixels), and said so.
 */
export function imageWarnings(route: TaskRoute, request: ImageRequest): Warning[] {
  return [...sizeWarnings(route, request), ...openAIFieldWarnings(route, request)];
}

function sizeWarnings(route: TaskRoute, request: ImageRequest): Warning[] {
  const size = sizeText(request.size);
  if (size === undefined) return [];
  if (route.job === "openai-images") {
    const sent = openAIImageSize(size);
    if (sent === undefined || sent === size.toLowerCase()) return [];
    return [{ type: "mapped", feature: "size", message: `sent as the upstream's ${sent}` }];
  }
  if (request.size !== undefined && "width" in request.size) {
    return [
      { type: "mapped", feature: "size", message: "sent as its aspect ratio and a size tier" },
    ];
  }
  return [];
}

/**
 * OpenAI Images fields: `n` and `response_format` are honoured everywhere (several calls to
 * Gemini; the gateway keeps the files and answers URLs or base64 itself). GPT image models take
 * no `style` and say quality in their own words; Gemini has neither, nor `user`.
 */
function openAIFieldWarnings(route: TaskRoute, request: ImageRequest): Warning[] {
  const warnings: Warning[] = [];
  if (request.style !== undefined) {
    warnings.push(dropped("style", `${request.model} has no style parameter`));
  }
  if (route.job === "openai-images") {
    const quality = request.quality;
    if (quality !== undefined && Object.hasOwn(dallEQualities, quality)) {
      const sent = dallEQualities[quality as keyof typeof dallEQualities];
      warnings.push({ type: "mapped", feature: "quality", message: `sent as "${sent}"` });
    }
    return warnings;
  }
  if (request.quality !== undefined) {
    warnings.push(dropped("quality", `${request.model} has no quality parameter`));
  }
  if (request.user !== undefined) {
    warnings.push(dropped("user", `${request.model} takes no end-user id`));
  }
  return warnings;
}
