import type { Context } from "hono";
import type { SimEnv } from "../core/env.ts";
import { isObject, type JsonObject } from "../core/json.ts";
import type { ProtocolErrors } from "../core/protocol-errors.ts";
import type { Sim } from "../core/sim.ts";
import { type OpenaiRequest, openaiPreamble } from "./preamble.ts";

/**
 * The preamble of an OpenAI endpoint that reads a turn from a JSON object (chat, Responses):
 * authentication, the object check and the turn, any refusal a 400 in `adaptErrors`' shape.
 */
export function openaiTurnPreamble<T>(
  c: Context<SimEnv>,
  sim: Sim,
  readTurn: (json: JsonObject) => T | string,
  adaptErrors: (errors: ProtocolErrors) => ProtocolErrors = (errors) => errors,
): Response | (OpenaiRequest & { json: JsonObject; turn: T }) {
  const request = openaiPreamble(c, sim);
  if (request instanceof Response) return request;
  const errors = adaptErrors(request.errors);
  const json = request.body.json;
  if (!isObject(json))
    return errors.response(400, { message: "The request body must be a JSON object." });
  const turn = readTurn(json);
  if (typeof turn === "string") return errors.response(400, { message: turn });
  return { body: request.body, headers: request.headers, errors, json, turn };
}
