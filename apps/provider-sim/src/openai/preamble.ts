import type { Context } from "hono";
import type { SimEnv } from "../core/env.ts";
import { alnumId } from "../core/hash.ts";
import type { ProtocolErrors } from "../core/protocol-errors.ts";
import type { RequestBody } from "../core/request-body.ts";
import type { Sim } from "../core/sim.ts";
import { openaiAuth } from "./auth.ts";
import { openaiErrors } from "./errors.ts";

export type OpenaiRequest = {
  body: RequestBody;
  errors: ProtocolErrors;
  headers: Record<string, string>;
};

/** Request id, error shape and authentication, common to every OpenAI endpoint. */
export function openaiPreamble(c: Context<SimEnv>, sim: Sim): OpenaiRequest | Response {
  const body = c.get("body");
  const requestId = `req_${alnumId(`${body.seed}:${sim.sequence()}`, 32)}`;
  const errors = openaiErrors(requestId);
  const denied = openaiAuth(c.req.raw.headers, sim.options.keys.openai, errors);
  if (denied) return denied;
  if (body.invalidJson) {
    return errors.response(400, {
      message:
        "We could not parse the JSON body of your request. The OpenAI API expects a JSON payload.",
    });
  }
  return { body, errors, headers: { "x-request-id": requestId } };
}
