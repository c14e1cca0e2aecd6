import { badGateway, formatFieldPath } from "@interlingua/errors";
import {
  OPENAI_IMAGE_MAX_N,
  type OpenAIImageResponseWire,
  openAIImageResponseSchema,
} from "./openai-images-api.js";

export interface OpenAIImage {
  /** Base64 bytes (GPT image models always answer this way). */
  b64Json?: string;
  /** A link (DALL-E with response_format url). */
  url?: string;
  revisedPrompt?: string;
}

export interface OpenAIImageUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  inputTokensDetails?: { textTokens?: number; imageTokens?: number };
}

export interface OpenAIImageResult {
  /** Unix seconds. */
  created: number;
  images: OpenAIImage[];
  usage?: OpenAIImageUsage;
  outputFormat?: string;
  size?: string;
  quality?: string;
  background?: string;
}

// The reply is the upstream's: counts and texts are bounded before they go further.
export const OPENAI_IMAGE_LIMITS = {
  /** Images kept: the most a request may ask for. */
  images: OPENAI_IMAGE_MAX_N,
  revisedPrompt: 32_000,
  field: 64,
} as const;

const cap = (text: string, max: number) => (text.length <= max ? text : text.slice(0, max));

function usageOf(usage: NonNullable<OpenAIImageResponseWire["usage"]>): OpenAIImageUsage {
  const out: OpenAIImageUsage = {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    totalTokens: usage.total_tokens,
  };
  const details = usage.input_tokens_details;
  if (details !== undefined) {
    out.inputTokensDetails = {};
    if (details.text_tokens !== undefined) out.inputTokensDetails.textTokens = details.text_tokens;
    if (details.image_tokens !== undefined) {
      out.inputTokensDetails.imageTokens = details.image_tokens;
    }
  }
  return out;
}

const echoed = ["output_format", "size", "quality", "background"] as const;
const echoedAs = {
  output_format: "outputFormat",
  size: "size",
  quality: "quality",
  background: "background",
} as const satisfies Record<(typeof echoed)[number], keyof OpenAIImageResult>;

/**
 * A reply of `POST /v1/images/generations` (or `/v1/images/edits`) -> images and usage. A body
 * that is not one (an error body included: check the status first) is a 502 naming the field.
 */
export function parseOpenAIImageResponse(json: unknown): OpenAIImageResult {
  const parsed = openAIImageResponseSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at =
      issue === undefined || issue.path.length === 0 ? "" : ` at ${formatFieldPath(issue.path)}`;
    throw badGateway(`Upstream sent an invalid image reply${at}: ${issue?.message ?? "invalid"}`);
  }
  const reply = parsed.data;
  const images: OpenAIImage[] = [];
  for (const datum of reply.data.slice(0, OPENAI_IMAGE_LIMITS.images)) {
    const image: OpenAIImage = {};
    if (datum.b64_json !== undefined) image.b64Json = datum.b64_json;
    if (datum.url !== undefined) image.url = datum.url;
    if (datum.revised_prompt !== undefined) {
      image.revisedPrompt = cap(datum.revised_prompt, OPENAI_IMAGE_LIMITS.revisedPrompt);
    }
    images.push(image);
  }
  const result: OpenAIImageResult = { created: reply.created, images };
  if (reply.usage !== undefined) result.usage = usageOf(reply.usage);
  for (const key of echoed) {
    const value = reply[key];
    if (value !== undefined) result[echoedAs[key]] = cap(value, OPENAI_IMAGE_LIMITS.field);
  }
  return result;
}
