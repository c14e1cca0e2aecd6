import {
  extrasFieldPaths,
  type Request,
  type RequestFieldTable,
  zLooseObject,
} from "@interlingua/core-types";
import * as z from "zod/mini";
import { isCanonicalChatAllowedTools } from "./map-chat-tool-choice.js";

const nullish = <T extends z.ZodMiniType>(schema: T) => z.optional(z.nullable(schema));

/**
 * Request fields of OpenAI's chat completions that the canonical model does not interpret. They
 * are validated here, kept in `extras.chat` by the parser and sent back as they came to a chat
 * upstream; toward any other protocol each is dropped with a warning (`chatRequestFields`).
 */
export const chatPassThroughShape = {
  logit_bias: nullish(z.record(z.string(), z.number())),
  store: nullish(z.boolean()),
  service_tier: nullish(z.string()),
  prediction: nullish(zLooseObject({ type: z.string() })),
  modalities: nullish(z.array(z.string())),
  audio: nullish(zLooseObject({})),
  verbosity: nullish(z.string()),
  safety_identifier: nullish(z.string()),
  prompt_cache_key: nullish(z.string()),
  prompt_cache_retention: nullish(z.string()),
};

/**
 * Every field of the chat request schema and what happens to it when the request goes to another
 * protocol (see core-types `RequestFieldAction`). A test walks `chatRequestSchema` against it.
 */
export const chatRequestFields: RequestFieldTable = {
  model: "mapped",
  messages: "mapped",
  temperature: "mapped",
  top_p: "mapped",
  frequency_penalty: "mapped",
  presence_penalty: "mapped",
  stop: "mapped",
  n: "mapped",
  max_tokens: "mapped",
  max_completion_tokens: "mapped",
  seed: "mapped",
  user: "mapped",
  tools: "mapped",
  tool_choice: "mapped",
  functions: "mapped",
  function_call: "mapped",
  parallel_tool_calls: "mapped",
  response_format: "mapped",
  stream: "mapped",
  "stream_options.include_usage": "mapped",
  stream_options: "mapped",
  reasoning_effort: "mapped",
  metadata: "mapped",
  web_search_options: "mapped",
  logprobs: "mapped",
  top_logprobs: "mapped",
  logit_bias: "warned",
  store: "warned",
  service_tier: "warned",
  prediction: "warned",
  modalities: "warned",
  audio: "warned",
  verbosity: "warned",
  safety_identifier: "warned",
  prompt_cache_key: "warned",
  prompt_cache_retention: "warned",
};

/** Values that ask for nothing, so dropping them loses nothing and is not reported. */
const NO_OP: Readonly<Record<string, (value: unknown) => boolean>> = {
  store: (v) => v === false || v === null,
  // Kept beside max_completion_tokens, which carries the value canonically.
  max_tokens: () => true,
  // An allowed_tools naming custom tools is carried for OpenAI; elsewhere its canonical
  // `allowed` says it all (a custom tool is a function there).
  tool_choice: isCanonicalChatAllowedTools,
};

/**
 * The client's chat fields a request rendered for another protocol leaves behind: what
 * `extras.chat` holds, minus values that ask for nothing. Each is a `dropped` warning.
 */
export function untranslatedChatFields(request: Request): string[] {
  const bag = request.extras?.["chat"];
  return extrasFieldPaths(bag).filter((path) => {
    const noOp = Object.hasOwn(NO_OP, path) ? NO_OP[path] : undefined;
    return noOp === undefined || !noOp(bag?.[path]);
  });
}
