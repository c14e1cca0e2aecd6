import { zLooseObject } from "@interlingua/core-types";
import * as z from "zod/mini";
import { interlinguaResponsesRequestSchema, openAiToolSchema } from "./responses-api.js";
import { responsesObjectSchema } from "./responses-stream-api.js";

/**
 * OpenAI's real Responses API bodies, as `responses` renders them: the request with flat
 * function tools and `max_output_tokens`, the result as a Responses object (`output[]` items).
 * Parsing is wider (both shapes, see `interlinguaResponsesRequestSchema`); these are the render
 * oracles.
 */
const jsonObject = z.record(z.string(), z.unknown());

export const responsesFlatFunctionToolSchema = zLooseObject({
  type: z.literal("function"),
  name: z.string().check(z.minLength(1)),
  description: z.nullish(z.string()),
  parameters: z.nullish(jsonObject),
  strict: z.nullish(z.boolean()),
});
export const responsesFlatToolSchema = z.union([
  responsesFlatFunctionToolSchema,
  zLooseObject({ type: z.enum(["web_search", "file_search", "remote_mcp"]) }),
  openAiToolSchema,
]);

export const responsesRequestSchema = z.extend(
  z.omit(interlinguaResponsesRequestSchema, { max_tokens: true }),
  { tools: z.nullish(z.array(responsesFlatToolSchema)) },
);

export const responsesResponseSchema = z.extend(responsesObjectSchema, {
  /** The text of every output_text part, joined: what the SDKs' `output_text` computes. */
  output_text: z.optional(z.string()),
});

export type ResponsesFlatFunctionTool = z.infer<typeof responsesFlatFunctionToolSchema>;
export type ResponsesFlatTool = z.infer<typeof responsesFlatToolSchema>;
export type ResponsesRequestWire = z.infer<typeof responsesRequestSchema>;
export type ResponsesResponseWire = z.infer<typeof responsesResponseSchema>;
