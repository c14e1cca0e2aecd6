import type { Context } from "hono";
import type { SimEnv } from "../core/env.ts";
import { alnumId } from "../core/hash.ts";
import type { ProtocolErrors } from "../core/protocol-errors.ts";
import type { RequestBody } from "../core/request-body.ts";
import type { Sim } from "../core/sim.ts";
import { anthropicAuth } from "./auth.ts";
import { anthropicErrors } from "./errors.ts";

export type AnthropicRequest = {
  body: RequestBody;
  errors: ProtocolErrors;
  headers: Record<string, string>;
};

/** Request id, error shape and authentication, common to every Anthropic endpoint. */
export function anthropicPreamble(c: Context<SimEnv>, sim: Sim): AnthropicRequest | Response {
  const body = c.get("body");
  const requestId = `req_${alnumId(`${body.seed}:${sim.sequence()}`, 24)}`;
  const errors = anthropicErrors(requestId, sim.options.now);
  const denied = anthropicAuth(c.req.raw.headers, sim.options.keys.anthropic, errors);
  if (denied) return denied;
  if (body.invalidJson)
    return errors.response(400, {
      message: "There was an error parsing the body of your request.",
    });
  return { body, errors, headers: { "request-id": requestId } };
}
