import { isObject, type JsonObject } from "../core/json.ts";
import type { ErrorDetails } from "../core/protocol-errors.ts";

// Reads `POST /v1/images/generations` as OpenAI checks it: GPT image models and DALL-E models
// take different parameters, an unknown one is a 400 `unknown_parameter` (the recorded answer to
// `response_format` on a GPT image model), a bad value a 400 naming the parameter.

export type ImageFamily = "gpt-image" | "dall-e-2" | "dall-e-3";

export type ImageJob = {
  model: string;
  family: ImageFamily;
  prompt: string;
  n: number;
  /** GPT image models: the size, quality and background the reply reports (auto resolved). */
  size: string;
  quality: string;
  background: string;
  /** DALL-E: answer with URLs. GPT image models always answer base64. */
  url: boolean;
};

const MAX_N = 10;
const SIZE = /^\d{3,4}x\d{3,4}$/;

const COMMON = ["model", "prompt", "n", "size", "quality", "user"];
const PARAMETERS: Record<ImageFamily, ReadonlySet<string>> = {
  "gpt-image": new Set([
    ...COMMON,
    "background",
    "output_format",
    "output_compression",
    "moderation",
    "stream",
    "partial_images",
  ]),
  "dall-e-2": new Set([...COMMON, "response_format"]),
  "dall-e-3": new Set([...COMMON, "response_format", "style"]),
};

const CHOICES: Record<ImageFamily, Record<string, readonly string[]>> = {
  "gpt-image": {
    quality: ["low", "medium", "high", "auto"],
    background: ["transparent", "opaque", "auto"],
    output_format: ["png", "jpeg", "webp"],
    moderation: ["low", "auto"],
  },
  "dall-e-2": {
    size: ["256x256", "512x512", "1024x1024"],
    quality: ["standard"],
    response_format: ["url", "b64_json"],
  },
  "dall-e-3": {
    size: ["1024x1024", "1792x1024", "1024x1792"],
    quality: ["standard", "hd"],
    response_format: ["url", "b64_json"],
    style: ["vivid", "natural"],
  },
};

class ImageRequestError extends Error {
  readonly details: ErrorDetails;

  constructor(details: ErrorDetails) {
    super(details.message);
    this.details = details;
  }
}

function fail(param: string, message: string, code: string | undefined): never {
  throw new ImageRequestError({ message, param, ...(code ? { reason: code } : {}) });
}

export function imageFamily(model: string): ImageFamily {
  if (model.startsWith("dall-e-3")) return "dall-e-3";
  if (model.startsWith("dall-e")) return "dall-e-2";
  return "gpt-image";
}

function readN(value: unknown, family: ImageFamily): number {
  if (value === undefined || value === null) return 1;
  if (typeof value !== "number" || !Number.isInteger(value)) {
    fail(
      "n",
      `Invalid type for 'n': expected an integer, but got ${typeof value} instead.`,
      "invalid_type",
    );
  }
  if (value < 1) {
    fail(
      "n",
      `Invalid 'n': integer below minimum value. Expected a value >= 1, but got ${value} instead.`,
      "integer_below_min_value",
    );
  }
  if (value > MAX_N) {
    fail(
      "n",
      `Invalid 'n': integer above maximum value. Expected a value <= ${MAX_N}, but got ${value} instead.`,
      "integer_above_max_value",
    );
  }
  if (family === "dall-e-3" && value !== 1)
    fail("n", "You must provide n=1 for this model.", undefined);
  return value;
}

function checkChoices(body: JsonObject, family: ImageFamily): void {
  for (const [param, allowed] of Object.entries(CHOICES[family])) {
    const value = body[param];
    if (value !== undefined && value !== null && !allowed.includes(String(value))) {
      fail(
        param,
        `Invalid value: '${String(value)}'. Supported values are: ${allowed.map((a) => `'${a}'`).join(", ")}.`,
        "invalid_value",
      );
    }
  }
  // GPT image models take any WxH within their limits, or auto.
  if (family === "gpt-image" && body.size !== undefined && body.size !== null) {
    if (typeof body.size !== "string" || (body.size !== "auto" && !SIZE.test(body.size))) {
      fail(
        "size",
        `Invalid value: '${String(body.size)}'. Supported values are: 'auto' or WIDTHxHEIGHT, e.g. '1024x1024'.`,
        "invalid_value",
      );
    }
  }
}

function readJob(body: unknown): ImageJob {
  if (!isObject(body) || typeof body.prompt !== "string" || body.prompt === "") {
    fail("prompt", "Missing required parameter: 'prompt'.", "missing_required_parameter");
  }
  const model = typeof body.model === "string" && body.model !== "" ? body.model : "dall-e-2";
  const family = imageFamily(model);
  for (const key of Object.keys(body)) {
    if (!PARAMETERS[family].has(key))
      fail(key, `Unknown parameter: '${key}'.`, "unknown_parameter");
  }
  checkChoices(body, family);
  const str = (value: unknown, fallback: string) =>
    typeof value === "string" && value !== "auto" ? value : fallback;
  return {
    model,
    family,
    prompt: body.prompt,
    n: readN(body.n, family),
    size: str(body.size, "1024x1024"),
    quality: str(body.quality, family === "gpt-image" ? "medium" : "standard"),
    background: str(body.background, "opaque"),
    url: family !== "gpt-image" && body.response_format !== "b64_json",
  };
}

/** The job, or the details of the 400 `invalid_request_error` it earns. */
export function parseImageRequest(body: unknown): ImageJob | { error: ErrorDetails } {
  try {
    return readJob(body);
  } catch (error) {
    if (error instanceof ImageRequestError) return { error: error.details };
    throw error;
  }
}

/** GPT image output tokens per image, by quality and shape (OpenAI's published table). */
const OUTPUT_TOKENS: Record<string, [square: number, portrait: number, landscape: number]> = {
  low: [272, 408, 400],
  medium: [1056, 1584, 1568],
  high: [4160, 6240, 6208],
};

export function imageOutputTokens(quality: string, size: string): number {
  const [w = 1, h = 1] = size.split("x").map(Number);
  const row = OUTPUT_TOKENS[quality] ?? OUTPUT_TOKENS.medium!;
  return w === h ? row[0] : h > w ? row[1] : row[2];
}
