import * as z from "zod";
import { openAiToolSchema, responsesRequestSchema } from "./responses-api.js";
import { responsesObjectSchema } from "./responses-stream-api.js";

/**
 * OpenAI's real Responses API bodies, as `responsesApi` renders them: the request with flat
 * function tools and `max_output_tokens`, the result as a Responses object (`output[]` items).
 * Parsing is wider (both shapes, see `responsesRequestSchema`); these are the render oracles.
 */
const jsonObject = z.record(z.string(), z.unknown());

export const responsesApiFunctionToolSchema = z.looseObject({
  type: z.literal("function"),
  name: z.string().min(1),
  description: z.string().nullish(),
  parameters: jsonObject.nullish(),
  strict: z.boolean().nullish(),
});
export const responsesApiToolSchema = z.union([
  responsesApiFunctionToolSchema,
  z.looseObject({ type: z.enum(["web_search", "file_search", "remote_mcp"]) }),
  openAiToolSchema,
]);

export const responsesApiRequestSchema = responsesRequestSchema
  .omit({ max_tokens: true })
  .extend({ tools: z.array(responsesApiToolSchema).nullish() });

export const responsesApiResponseSchema = responsesObjectSchema.extend({
  /** The text of every output_text part, joined: what the SDKs' `output_text` computes. */
  output_text: z.string().optional(),
});

export type ResponsesApiFunctionTool = z.infer<typeof responsesApiFunctionToolSchema>;
export type ResponsesApiTool = z.infer<typeof responsesApiToolSchema>;
export type ResponsesApiRequestWire = z.infer<typeof responsesApiRequestSchema>;
export type ResponsesApiResponseWire = z.infer<typeof responsesApiResponseSchema>;
