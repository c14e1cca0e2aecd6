import { z } from "zod";

// Query strings and bodies of the management API, in the field names of the management API it
// mirrors (p, page_size, remain_quota, unlimited_quota, expired_time: unix seconds, -1 = never).

const intString = z
  .string()
  .regex(/^-?\d+$/, "must be an integer")
  .transform(Number);

export const pageQuerySchema = z.object({
  p: intString.pipe(z.number().int().min(1)).default(1),
  page_size: intString.pipe(z.number().int().min(1).max(100)).default(20),
});

export const logQuerySchema = pageQuerySchema.extend({
  model_name: z.string().min(1).optional(),
  token_name: z.string().min(1).optional(),
  start_timestamp: intString.pipe(z.number().int().nonnegative()).optional(),
  end_timestamp: intString.pipe(z.number().int().nonnegative()).optional(),
  /** `ok` (below 400), `error` (400 and above) or one HTTP status. */
  status: z
    .union([z.enum(["ok", "error"]), intString.pipe(z.number().int().min(100).max(599))])
    .optional(),
});
export type LogQuery = z.output<typeof logQuerySchema>;

const expiredTime = z.number().int().min(-1);
const models = z.array(z.string().min(1)).max(1000).nullable();
/** The token's own requests and tokens per minute (at most the caller's); null: none of its own. */
const rateLimit = z
  .strictObject({
    rpm: z.number().int().positive().optional(),
    tpm: z.number().int().positive().optional(),
  })
  .nullable();

export const createTokenSchema = z.strictObject({
  name: z.string().min(1).max(100),
  remain_quota: z.number().int().nonnegative().default(0),
  unlimited_quota: z.boolean().default(false),
  expired_time: expiredTime.default(-1),
  models: models.optional(),
  rate_limit: rateLimit.optional(),
});

export const updateTokenSchema = z.strictObject({
  id: z.number().int().positive().optional(),
  name: z.string().min(1).max(100).optional(),
  remain_quota: z.number().int().nonnegative().optional(),
  unlimited_quota: z.boolean().optional(),
  expired_time: expiredTime.optional(),
  models: models.optional(),
  status: z.enum(["active", "disabled"]).optional(),
  rate_limit: rateLimit.optional(),
});
export type UpdateTokenBody = z.output<typeof updateTokenSchema>;

export const tokenIdSchema = intString.pipe(z.number().int().positive());
