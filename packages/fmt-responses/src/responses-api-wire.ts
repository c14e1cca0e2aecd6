import * as z from "zod";
import { interlinguaResponsesRequestSchema, openAiToolSchema } from "./responses-api.js";
import { responsesObjectSchema } from "./responses-stream-api.js";

/**
 * OpenAI's real Responses API bodies, as `responses` renders them: the request with flat
 * function tools and `max_output_tokens`, the result as a Responses object (`output[]` items).
 * Parsing is wider (both shapes, see `interlinguaResponsesRequestSchema`); these are the render
 * oracles.
 */
const jsonObject = z.record(z.string(), z.unknown());

export const responsesFlatFunctionToolSchema = z.looseObject({
  type: z.literal("function"),
  name: z.string().min(1),
  description: z.string().nullish(),
  parameters: jsonObject.nullish(),
  strict: z.boolean().nullish(),
});
export const responsesFlatToolSchema = z.union([
  responsesFlatFunctionToolSchema,
  z.looseObject({ type: z.enum(["web_search", "file_search", "remote_mcp"]) }),
  openAiToolSchema,
]);

export const responsesRequestSchema = interlinguaResponsesRequestSchema
  .omit({ max_tokens: true })
  .extend({ tools: z.array(responsesFlatToolSchema).nullish() });

export const responsesResponseSchema = responsesObjectSchema.extend({
  /** The text of every output_text part, joined: what the SDKs' `output_text` computes. */
  output_text: z.string().optional(),
});

export type ResponsesFlatFunctionTool = z.infer<typeof responsesFlatFunctionToolSchema>;
export type ResponsesFlatTool = z.infer<typeof responsesFlatToolSchema>;
export type ResponsesRequestWire = z.infer<typeof responsesRequestSchema>;
export type ResponsesResponseWire = z.infer<typeof responsesResponseSchema>;
