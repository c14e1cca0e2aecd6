import { invalidFromZod } from "@interlingua/errors";
import {
  type OpenAIImageBackground,
  type OpenAIImageOutputFormat,
  type OpenAIImageQuality,
  type OpenAIImageRequestWire,
  type OpenAIImageResponseFormat,
  type OpenAIImageSize,
  openAIImageRequestSchema,
} from "./openai-images-api.js";

/** The neutral image request for an OpenAI channel (camelCase; the wire is snake_case). */
export interface OpenAIImageRequest {
  model: string;
  prompt: string;
  n?: number;
  size?: OpenAIImageSize;
  quality?: OpenAIImageQuality;
  background?: OpenAIImageBackground;
  outputFormat?: OpenAIImageOutputFormat;
  /** DALL-E models only; GPT image models refuse the parameter. */
  responseFormat?: OpenAIImageResponseFormat;
  user?: string;
}

/** Neutral key -> wire key; one table serves both directions. */
const keys = [
  ["model", "model"],
  ["prompt", "prompt"],
  ["n", "n"],
  ["size", "size"],
  ["quality", "quality"],
  ["background", "background"],
  ["outputFormat", "output_format"],
  ["responseFormat", "response_format"],
  ["user", "user"],
] as const satisfies readonly (readonly [keyof OpenAIImageRequest, keyof OpenAIImageRequestWire])[];

/** The JSON body of `POST /v1/images/generations`; unset fields are left out. */
export function renderOpenAIImageRequest(request: OpenAIImageRequest): OpenAIImageRequestWire {
  const body: Record<string, unknown> = {};
  for (const [neutral, wire] of keys) {
    if (request[neutral] !== undefined) body[wire] = request[neutral];
  }
  return body as OpenAIImageRequestWire;
}

/** A body (ours, or a client's to the simulator) -> the neutral request; a 400 naming the field. */
export function parseOpenAIImageRequest(body: unknown): OpenAIImageRequest {
  const parsed = openAIImageRequestSchema.safeParse(body);
  if (!parsed.success) throw invalidFromZod(parsed.error, "image request");
  const out: Record<string, unknown> = {};
  for (const [neutral, wire] of keys) {
    if (parsed.data[wire] !== undefined) out[neutral] = parsed.data[wire];
  }
  return out as unknown as OpenAIImageRequest;
}
