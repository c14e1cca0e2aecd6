import { z } from "zod";

// Bodies the gateway renders itself (docs/api-reference.md resources), as zod schemas for the OpenAPI
// document. The request and result schemas of the four formats come from their codecs.

export const standardErrorSchema = z.object({
  error: z.object({
    code: z.union([z.number().int(), z.string()]),
    message: z.string(),
    type: z.string(),
    param: z.string().nullable().optional(),
  }),
});

export const messagesErrorSchema = z.object({
  type: z.literal("error"),
  error: z.object({ type: z.string(), message: z.string() }),
});

export const nativeErrorSchema = z.object({
  error: z.object({ code: z.number().int(), message: z.string(), status: z.string() }),
});

export const uploadErrorSchema = z.object({
  error: z.object({ message: z.string(), type: z.string(), code: z.number().int().optional() }),
});

/** `{success, message, data}` of the management API. */
export const managementEnvelope = (data: z.core.$ZodType) =>
  z.object({ success: z.boolean(), message: z.string(), data });

/** `{code: 200, data}`, or the data alone under `envelope: bare`. */
export const wrapped = (data: z.core.$ZodType) => z.object({ code: z.literal(200), data });

export const tokenBalanceSchema = z.object({
  success: z.boolean(),
  message: z.string().optional(),
  remain_balance: z.number(),
  remain_credits: z.number().int(),
  used_balance: z.number(),
  used_credits: z.number().int(),
  unlimited_quota: z.boolean(),
});

export const userBalanceSchema = z.object({
  success: z.boolean(),
  message: z.string().optional(),
  remain_balance: z.number(),
  remain_credits: z.number().int(),
  used_balance: z.number(),
  used_credits: z.number(),
});

export const submissionSchema = wrapped(
  z.array(z.object({ status: z.literal("submitted"), task_id: z.string() })),
);

export const uploadRecordSchema = z.object({
  url: z.string(),
  filename: z.string(),
  content_type: z.string(),
  bytes: z.number().int(),
  created_at: z.number().int(),
});

export const modelSchema = z.object({
  id: z.string(),
  object: z.literal("model"),
  created: z.number().int(),
  owned_by: z.string(),
});

export const modelListSchema = z.object({
  object: z.literal("list"),
  data: z.array(modelSchema),
});

const webhookFields = {
  webhook: z.string().optional().describe("Base URL; the push goes to `<webhook>/callback`"),
  language: z.string().optional().describe("Language of `error.message` (en, zh, ja, ...)"),
};

export const videoRequestSchema = z.object({
  model: z.string(),
  prompt: z.string(),
  duration: z.number().int().optional(),
  aspect_ratio: z.enum(["16:9", "9:16"]).optional(),
  generation_type: z.enum(["frame", "reference"]).optional(),
  image_urls: z.array(z.string()).max(3).optional(),
  resolution: z.string().optional(),
  enable_gif: z.boolean().optional(),
  official_fallback: z.boolean().optional(),
  negative_prompt: z.string().optional(),
  first_frame_image: z.string().optional(),
  last_frame_image: z.string().optional(),
  seed: z.number().int().min(0).max(4294967295).optional(),
  sample_count: z.number().int().min(1).max(4).optional(),
  generate_audio: z.boolean().optional(),
  person_generation: z.enum(["allow_adult", "disallow"]).optional(),
  resize_mode: z.enum(["pad", "crop"]).optional(),
  enhance_prompt: z.boolean().optional(),
  ...webhookFields,
});

export const remixRequestSchema = z.object({
  model: z.string(),
  prompt: z.string(),
  raw: z.boolean().optional(),
  aspect_ratio: z.enum(["16:9", "9:16"]).optional(),
  resolution: z.string().optional(),
  ...webhookFields,
});

export const imageRequestSchema = z.object({
  model: z.string(),
  prompt: z.string(),
  image_urls: z.array(z.object({ url: z.string() })).optional(),
  size: z.string().optional(),
  n: z.int().min(1).max(10).optional().describe("Images to make (OpenAI Images API)"),
  response_format: z
    .enum(["url", "b64_json"])
    .optional()
    .describe("How the synchronous ImagesResponse carries the images"),
  quality: z.enum(["auto", "low", "medium", "high", "standard", "hd"]).optional(),
  style: z.enum(["vivid", "natural"]).optional(),
  user: z.string().optional(),
  ...webhookFields,
});

/** OpenAI's ImagesResponse: the synchronous answer under the bare envelope or `Prefer: wait`. */
export const imagesResponseSchema = z.object({
  created: z.int(),
  data: z.array(z.object({ url: z.string().optional(), b64_json: z.string().optional() })),
});

/** A stored Responses object (OpenAI's shape), as `GET /v1/responses/{id}` answers it. */
export const storedResponseSchema = z.looseObject({
  id: z.string(),
  object: z.literal("response"),
  created_at: z.int(),
  status: z.enum(["queued", "in_progress", "completed", "incomplete", "failed", "cancelled"]),
  model: z.string(),
  output: z.array(z.looseObject({ id: z.string(), type: z.string() })),
  store: z.boolean(),
  background: z.boolean(),
  previous_response_id: z.string().nullable(),
  instructions: z.unknown(),
  metadata: z.record(z.string(), z.unknown()),
  parallel_tool_calls: z.boolean(),
  temperature: z.number().nullable(),
  tool_choice: z.unknown(),
  tools: z.array(z.unknown()),
  top_p: z.number().nullable(),
});

/** `GET /v1/responses/{id}/input_items`: OpenAI's list object. */
export const inputItemListSchema = z.object({
  object: z.literal("list"),
  data: z.array(z.looseObject({ id: z.string() })),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
  has_more: z.boolean(),
});

export const deletedResponseSchema = z.object({
  id: z.string(),
  object: z.literal("response"),
  deleted: z.literal(true),
});

export const uploadFormSchema = z.object({
  file: z.string().describe("The image (JPEG, PNG, WebP or GIF), at most 20971520 bytes"),
});

export const transcriptionFormSchema = z.object({
  file: z.string().describe("mp3, mp4, mpeg, mpga, m4a, wav or webm; at most 25 MB"),
  model: z.string(),
  language: z.string().optional(),
  prompt: z.string().optional(),
  response_format: z.enum(["json", "text", "srt", "verbose_json", "vtt"]).optional(),
  temperature: z.number().min(0).max(1).optional(),
});

export const webhookSecretSchema = managementEnvelope(z.object({ secret: z.string() }));

export const healthSchema = z.object({ status: z.literal("ok") });

export const readySchema = z.object({
  status: z.enum(["ready", "not ready"]),
  checks: z.record(z.string(), z.string()),
});
