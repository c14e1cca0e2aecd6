import {
  extrasFieldPaths,
  type Request,
  type RequestFieldTable,
  zLooseObject,
} from "@interlingua/core-types";
import * as z from "zod/mini";
import { MESSAGES_EXTRAS } from "./messages-extras.js";

/**
 * Request fields of Anthropic's Messages API that the canonical model does not interpret (beyond
 * `output_config.effort`, which becomes the canonical effort). Validated here, kept in
 * `extras.messages` and sent back as they came to an Anthropic upstream; toward any other
 * protocol each is dropped with a warning (`messagesRequestFields`).
 */
export const messagesPassThroughShape = {
  service_tier: z.optional(z.string()),
  inference_geo: z.optional(z.string()),
  container: z.optional(z.nullable(z.union([z.string(), zLooseObject({})]))),
  mcp_servers: z.optional(z.array(zLooseObject({}))),
  context_management: z.optional(z.nullable(zLooseObject({}))),
  /** effort (mapped) and format (structured output: kept for Anthropic, dropped elsewhere). */
  output_config: z.optional(zLooseObject({})),
  /** The beta form of output_config.format (structured-outputs-2025-11-13). */
  output_format: z.optional(z.nullable(zLooseObject({}))),
};

/**
 * Every field of the messages request schema and what happens to it when the request goes to
 * another protocol (core-types `RequestFieldAction`). A test walks `messagesRequestSchema`.
 */
export const messagesRequestFields: RequestFieldTable = {
  model: "mapped",
  messages: "mapped",
  max_tokens: "mapped",
  system: "mapped",
  temperature: "mapped",
  top_p: "mapped",
  top_k: "mapped",
  stop_sequences: "mapped",
  metadata: "mapped",
  tools: "mapped",
  tool_choice: "mapped",
  thinking: "mapped",
  stream: "mapped",
  service_tier: "warned",
  inference_geo: "warned",
  container: "warned",
  mcp_servers: "warned",
  context_management: "warned",
  output_config: "mapped",
  output_format: "warned",
};

/** Extras fields whose sub-fields are reported one by one (effort has already left them). */
const NESTED: ReadonlySet<string> = new Set(["output_config"]);

/**
 * The client's messages fields a request rendered for another protocol leaves behind (what
 * `extras.messages` holds), each a `dropped` warning: `service_tier`, `output_config.format`, ...
 */
export function untranslatedMessagesFields(request: Request): string[] {
  return extrasFieldPaths(request.extras?.[MESSAGES_EXTRAS], NESTED);
}
