import type { Response as CanonicalResponse } from "@interlingua/core-types";
import type { GatewayError } from "@interlingua/errors";
import { responses, type StoredItem } from "@interlingua/fmt-responses";
import type { GatewayServices } from "../services/gateway-services.ts";
import type { StoredStatus } from "../storage/response-store.ts";
import { echoFields } from "./echo-fields.ts";
import type { StorePlan, WrittenPlan } from "./stored-state.ts";

// The back of a stateful Responses call: the response is written when the call starts
// (`in_progress`) and finished with the Responses object its client got, whichever envelope
// that client reads (a spec-envelope client's `id` names the same stored response).

const DAY_MS = 86_400_000;

/**
 * What a Responses object says of its request and state (added to the bare body the client
 * gets): the settings it repeats, from the plan or, for `store: false`, from the request's body.
 */
export const stateFields = (
  plan: WrittenPlan | undefined,
  wire?: Readonly<Record<string, unknown>>,
): Record<string, unknown> => ({
  ...(plan?.echo ?? (wire === undefined ? {} : echoFields(wire))),
  store: plan !== undefined,
  background: plan?.background === true,
  previous_response_id: plan?.previousId ?? null,
});

/** The Responses object of a call not finished yet. */
export function openBody(
  plan: WrittenPlan,
  model: string,
  status: StoredStatus,
): Record<string, unknown> {
  return {
    id: plan.responseId,
    object: "response",
    created_at: Math.floor(plan.createdAt / 1000),
    status,
    error: null,
    incomplete_details: null,
    model,
    output: [],
    output_text: "",
    ...stateFields(plan),
  };
}

/** Writes the response when its call starts; a background one is queued with its request. */
export async function beginStored(
  services: GatewayServices,
  plan: StorePlan,
  model: string,
  backgroundRequest?: unknown,
): Promise<void> {
  const status = backgroundRequest === undefined ? "in_progress" : "queued";
  await services.store.responses.begin(
    {
      id: plan.responseId,
      userId: plan.userId,
      previousId: plan.previousId,
      status,
      body: openBody(plan, model, status),
      inputItems: plan.inputItems,
      ...(backgroundRequest === undefined ? {} : { backgroundRequest }),
      ...(backgroundRequest !== undefined && plan.streamed === true ? { streamed: true } : {}),
      createdAt: plan.createdAt,
      expiresAt: plan.createdAt + services.config.responses.retention_days * DAY_MS,
    },
    services.now(),
  );
}

/** The Responses object kept for a canonical response (its id is already the plan's). */
export function storedBody(
  response: CanonicalResponse,
  plan: WrittenPlan,
): Record<string, unknown> {
  const object = responses.response.render(response) as unknown as Record<string, unknown>;
  return { ...object, ...stateFields(plan) };
}

const STATUSES: readonly StoredStatus[] = ["completed", "incomplete", "failed"];

/** Finishes the stored response with the object its client got; false when it was not open. */
export async function finishStored(
  services: GatewayServices,
  plan: WrittenPlan,
  body: Record<string, unknown>,
  /** The upstream protocol that made the output. */
  origin?: string,
): Promise<boolean> {
  // Kept as the client got it: a channel key an upstream echoed is redacted here too.
  const kept = services.redactor.active
    ? (JSON.parse(services.redactor.redact(JSON.stringify(body))) as Record<string, unknown>)
    : body;
  const status = STATUSES.find((s) => s === kept["status"]) ?? "completed";
  const output = Array.isArray(kept["output"]) ? (kept["output"] as StoredItem[]) : [];
  return services.store.responses.finish(
    plan.responseId,
    { status, body: kept, outputItems: output, origin },
    services.now(),
  );
}

/** A call that failed (before or during its reply) leaves its stored response `failed`. */
export function failedBody(
  plan: WrittenPlan,
  model: string,
  error: Pick<GatewayError, "message"> & { code?: string | number | undefined; type?: string },
): Record<string, unknown> {
  return {
    ...openBody(plan, model, "failed"),
    error: { code: String(error.code ?? error.type ?? "server_error"), message: error.message },
  };
}

/**
 * Runs `write` and logs (never throws) when it fails: the client has its answer already; only
 * the stored copy is missing, which a follow-up naming it then reports as not found.
 */
export async function recordQuietly(
  services: GatewayServices,
  plan: WrittenPlan,
  write: () => Promise<unknown>,
): Promise<void> {
  try {
    await write();
  } catch (error) {
    services.log.error(
      { err: error, responseId: plan.responseId },
      "could not record the stored response",
    );
  }
}
