import * as z from "zod/mini";
import { textPartSchema } from "./content-part.js";
import { jsonObjectSchema } from "./json-value.js";
import { MAX_TOP_LOGPROBS } from "./logprobs-request.js";
import { messageSchema } from "./message.js";
import { requestProviderExtrasSchema } from "./provider-extras.js";
import { responseFormatSchema } from "./response-format.js";
import { samplingSchema } from "./sampling.js";
import { thinkingConfigSchema } from "./thinking-config.js";
import { toolChoiceSchema, toolSchema } from "./tool.js";
import { extrasSchema } from "./wire-format.js";
import { zObject } from "./zod-object.js";

/** The interlingua request: what every format's request parses to and renders from. */
export const requestSchema = zObject({
  model: z.string().check(z.minLength(1)),
  /** System instructions in order; formats with several system messages merge here. */
  system: z.array(textPartSchema),
  /**
   * Where each system part stood among the turns: `systemAt[i]` is how many of `messages` came
   * before `system[i]` in the client's order. Absent, every system part came first. Formats with
   * system turns in place (Responses, chat) use it; others move them to the front and report it.
   */
  systemAt: z.exactOptional(z.array(z.int().check(z.nonnegative()))),
  messages: z.array(messageSchema),
  sampling: samplingSchema,
  tools: z.array(toolSchema),
  toolChoice: z.exactOptional(toolChoiceSchema),
  parallelToolCalls: z.exactOptional(z.boolean()),
  thinking: z.exactOptional(thinkingConfigSchema),
  responseFormat: z.exactOptional(responseFormatSchema),
  stream: z.boolean(),
  /** Return each output token's log probability (chat `logprobs`, Gemini `responseLogprobs`). */
  logprobs: z.exactOptional(z.boolean()),
  /** Alternatives per token to return with their log probabilities (chat `top_logprobs`). */
  topLogprobs: z.exactOptional(z.int().check(z.gte(0)).check(z.lte(MAX_TOP_LOGPROBS))),
  /** End-user id for abuse tracking (OpenAI `user`, Anthropic `metadata.user_id`). */
  user: z.exactOptional(z.string()),
  /** Provider request metadata that is not the user id (Anthropic metadata, OpenAI metadata). */
  metadata: z.exactOptional(jsonObjectSchema),
  /** Provider-only fields (Gemini cachedContent and safetySettings, chat include_usage), by provider. */
  providerExtras: z.exactOptional(requestProviderExtrasSchema),
  /** A format's wire fields the model does not interpret, kept for a same-format round trip. */
  extras: z.exactOptional(extrasSchema),
});
export type Request = z.infer<typeof requestSchema>;
