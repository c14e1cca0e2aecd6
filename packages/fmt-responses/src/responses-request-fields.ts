import {
  extrasFieldPaths,
  type Request,
  type RequestFieldTable,
  zLooseObject,
} from "@interlingua/core-types";
import * as z from "zod/mini";
import { isCanonicalAllowedTools } from "./map-responses-options.js";

/**
 * Request fields of OpenAI's Responses API that the canonical model does not interpret. Validated
 * here and kept in `extras.responses` (a same-format round trip keeps them); no upstream protocol
 * is the responses format, so toward every upstream each is dropped with a warning, or refused
 * where dropping it would change the request's meaning (`responsesRequestFields`).
 */
export const responsesPassThroughShape = {
  store: z.nullish(z.boolean()),
  /** Server-side conversation state, which the gateway does not keep. */
  previous_response_id: z.nullish(z.string()),
  conversation: z.nullish(z.union([z.string(), zLooseObject({})])),
  prompt: z.nullish(zLooseObject({})),
  background: z.nullish(z.boolean()),
  include: z.nullish(z.array(z.string())),
  truncation: z.nullish(z.string()),
  service_tier: z.nullish(z.string()),
  max_tool_calls: z.nullish(z.int().check(z.gte(1))),
  safety_identifier: z.nullish(z.string()),
  prompt_cache_key: z.nullish(z.string()),
  stream_options: z.nullish(zLooseObject({})),
};

/**
 * Every field of the responses request schema and what happens to it on the way to an upstream
 * (core-types `RequestFieldAction`). A test walks `interlinguaResponsesRequestSchema` against it.
 * Leftover sub-fields of `reasoning` and `text` (a `detailed` summary, `verbosity`) are warned. Of
 * `include`, the `message.output_text.logprobs` entry is the canonical `logprobs` (mapped); the
 * other entries are warned.
 */
export const responsesRequestFields: RequestFieldTable = {
  model: "mapped",
  input: "mapped",
  instructions: "mapped",
  temperature: "mapped",
  top_p: "mapped",
  max_tokens: "mapped",
  max_output_tokens: "mapped",
  stream: "mapped",
  tools: "mapped",
  tool_choice: "mapped",
  parallel_tool_calls: "mapped",
  reasoning: "mapped",
  "reasoning.effort": "mapped",
  "reasoning.summary": "mapped",
  text: "mapped",
  "text.format": "mapped",
  user: "mapped",
  metadata: "mapped",
  top_logprobs: "mapped",
  store: "warned",
  previous_response_id: "refused",
  conversation: "refused",
  prompt: "refused",
  background: "refused",
  include: "warned",
  truncation: "warned",
  service_tier: "warned",
  max_tool_calls: "warned",
  safety_identifier: "warned",
  prompt_cache_key: "warned",
  stream_options: "warned",
};

/** Values that ask for nothing, so leaving them behind loses nothing and is not reported. */
const NO_OP: Readonly<Record<string, (value: unknown) => boolean>> = {
  store: (v) => v === false || v === null,
  background: (v) => v === false || v === null,
  previous_response_id: (v) => v === null,
  conversation: (v) => v === null,
  prompt: (v) => v === null,
  truncation: (v) => v === "disabled" || v === null,
  include: (v) => v === null || (Array.isArray(v) && v.length === 0),
  // An allowed_tools naming custom tools is carried for the Responses API; elsewhere its
  // canonical `allowed` says it all (a custom tool is a function there).
  tool_choice: isCanonicalAllowedTools,
};

const NESTED: ReadonlySet<string> = new Set(["reasoning", "text"]);

/**
 * The client's responses fields a rendered request leaves behind (what `extras.responses` holds,
 * minus values that ask for nothing): each a `dropped` warning, or a 400 where the table refuses.
 */
export function untranslatedResponsesFields(request: Request): string[] {
  const bag = request.extras?.["responses"];
  return extrasFieldPaths(bag, NESTED).filter((path) => {
    const noOp = Object.hasOwn(NO_OP, path) ? NO_OP[path] : undefined;
    return noOp === undefined || !noOp(bag?.[path]);
  });
}
