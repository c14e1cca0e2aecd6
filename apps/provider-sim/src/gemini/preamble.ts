import type { Context } from "hono";
import type { SimEnv } from "../core/env.ts";
import type { ProtocolErrors } from "../core/protocol-errors.ts";
import type { RequestBody } from "../core/request-body.ts";
import type { Sim } from "../core/sim.ts";
import { geminiAuth } from "./auth.ts";
import { geminiErrors } from "./errors.ts";

export type GeminiRequest = { body: RequestBody; errors: ProtocolErrors; url: URL };

/** Error shape and authentication, common to every Gemini endpoint. */
export function geminiPreamble(c: Context<SimEnv>, sim: Sim): GeminiRequest | Response {
  const body = c.get("body");
  const errors = geminiErrors();
  const url = new URL(c.req.url);
  const denied = geminiAuth(c.req.raw.headers, url, sim.options.keys.gemini, errors);
  if (denied) return denied;
  if (body.invalidJson) return errors.response(400, { message: "Invalid JSON payload received." });
  return { body, errors, url };
}
