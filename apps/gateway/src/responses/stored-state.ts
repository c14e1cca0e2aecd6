import { randomBytes } from "node:crypto";
import type { Warning } from "@interlingua/core-types";
import { invalidRequest, notFound } from "@interlingua/errors";
import type { StoredItem } from "@interlingua/fmt-responses";
import {
  inputAsItems,
  itemType,
  referencedItemIds,
  resolveItemReferences,
} from "@interlingua/fmt-responses/tables";
import type { GatewayServices } from "../services/gateway-services.ts";
import {
  OPEN_STATUSES,
  type StoredEntry,
  type StoredResponseRow,
} from "../storage/response-store.ts";
import { echoFields } from "./echo-fields.ts";

// The front of a stateful Responses call (issue 25): `previous_response_id` and `item_reference`
// become the items they name, so the request that reaches the codec is a whole conversation any
// upstream can be given; `store` says whether this response joins the user's stored ones.

/** A response this call will keep: its id (the one the client sees) and its input items. */
export interface StorePlan {
  readonly responseId: string;
  readonly userId: string;
  readonly previousId: string | undefined;
  /** The whole conversation the response answers: history, then this call's input. */
  readonly inputItems: readonly StoredEntry[];
  /** Unix ms. */
  readonly createdAt: number;
  /** `background: true`: written queued at once, run by the background runner. */
  readonly background?: boolean;
  /** `background: true` with `stream: true`: its stream events are kept for a resumed stream. */
  readonly streamed?: boolean;
  /** The request settings its Responses object repeats (echo-fields.ts). */
  readonly echo?: Readonly<Record<string, unknown>>;
}

/** A plan whose response row is written: what finishing it reads (its input is kept already). */
export type WrittenPlan = Omit<StorePlan, "inputItems">;

/** `plan` without its conversation, for what outlives the call's start (a stream's settling). */
export function writtenPlan(plan: StorePlan): WrittenPlan {
  const { inputItems, ...written } = plan;
  return written;
}

export interface StoredState {
  wire: Record<string, unknown>;
  plan: StorePlan | undefined;
  /** What the stored history could not give this upstream. */
  warnings?: Warning[];
}

export const newResponseId = (): string => `resp_${randomBytes(16).toString("hex")}`;
const newItemId = (): string => randomBytes(12).toString("hex");

const POLL_MS = 50;

/**
 * A response still being recorded (its stream just ended on another request, or on another
 * instance) is waited for, a bounded while: a client sends its next turn as soon as it read the
 * last frame, which can be before the gateway wrote what that stream said.
 */
async function settledResponse(
  services: GatewayServices,
  id: string,
  userId: string,
): Promise<StoredResponseRow | undefined> {
  const until = Date.now() + services.config.responses.follow_up_wait_ms;
  for (;;) {
    const row = await services.store.responses.get(id, userId, services.now());
    if (row === undefined || !OPEN_STATUSES.includes(row.status) || row.background) {
      return row;
    }
    if (Date.now() >= until) return row;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The stored response an output item id names: `rs_|fc_|msg_<stem>_<index>` is `resp_<stem>`'s. */
function responseOfItem(itemId: string): string | undefined {
  const match = /^[a-z]+_([0-9a-f]+)_\d+$/.exec(itemId);
  return match === null ? undefined : `resp_${match[1]}`;
}

/**
 * Finds referenced items; one not found yet whose response is still being recorded (a stream its
 * client just aborted or finished, its next turn sent at once) is waited for, as
 * `previous_response_id` is, then looked for again.
 */
async function findItemsSettled(
  services: GatewayServices,
  userId: string,
  references: readonly string[],
): Promise<Map<string, StoredEntry>> {
  const responses = services.store.responses;
  const found = await responses.findItems(userId, references, services.now());
  const missing = references.filter((id) => !found.has(id));
  const owners = new Set(missing.map(responseOfItem).filter((id) => id !== undefined));
  let waited = false;
  for (const owner of owners) {
    const row = await settledResponse(services, owner, userId);
    if (row !== undefined) waited = true;
  }
  if (!waited) return found;
  const later = await responses.findItems(userId, missing, services.now());
  return new Map([...found, ...later]);
}

/**
 * Reads `store`, `previous_response_id` and `item_reference` items off a responses body. The
 * body handed on carries the expanded `input` and neither field (the gateway honours them; no
 * upstream is told). A body whose `input` is malformed is handed on as it is: the codec's parse
 * names the field. A refusal (a bad field, a response or item not found) is thrown.
 */
export async function resolveStoredState(
  services: GatewayServices,
  userId: string,
  body: Record<string, unknown>,
): Promise<StoredState> {
  const { store, previous_response_id: previous, background, ...rest } = body;
  for (const [field, value] of [
    ["store", store],
    ["background", background],
  ] as const) {
    if (value !== undefined && value !== null && typeof value !== "boolean") {
      throw invalidRequest(`${field}: must be a boolean`, field);
    }
  }
  if (background === true && store === false) {
    throw invalidRequest(
      "background: a background response is read back by its id, so it needs store: true",
      "background",
    );
  }
  if (previous !== undefined && previous !== null && typeof previous !== "string") {
    throw invalidRequest("previous_response_id: must be a string", "previous_response_id");
  }
  const keep = store !== false;
  const items = inputAsItems(body["input"], newItemId);
  if (items === undefined) return { wire: rest, plan: undefined };

  const references = referencedItemIds(items);
  // Nothing to read and nothing to keep: the body goes on as the client wrote it.
  if (!keep && typeof previous !== "string" && references.length === 0) {
    return { wire: rest, plan: undefined };
  }

  let history: StoredEntry[] = [];
  if (typeof previous === "string") {
    const row = await settledResponse(services, previous, userId);
    if (row === undefined) {
      throw notFound(`Previous response with id '${previous}' not found.`, {
        param: "previous_response_id",
      });
    }
    if (OPEN_STATUSES.includes(row.status)) {
      throw invalidRequest(
        `previous_response_id: response ${previous} is still ${row.status}; continue it once it has finished`,
        "previous_response_id",
      );
    }
    const responses = services.store.responses;
    history = [...(await responses.items(row.id, false)), ...(await responses.items(row.id, true))];
  }

  const found =
    references.length === 0
      ? new Map<string, StoredEntry>()
      : await findItemsSettled(services, userId, references);
  const origins = new Map<string, string | undefined>();
  for (const entry of [...history, ...found.values()]) origins.set(entry.item.id, entry.origin);
  const resolved = resolveItemReferences(
    history.map((entry) => entry.item),
    items,
    new Map([...found].map(([id, entry]) => [id, entry.item])),
  );
  if (resolved.missing.length > 0) {
    throw notFound(`Item with id '${resolved.missing[0]}' not found.`, { param: "input" });
  }

  const { kept, warnings } = withoutForeignReasoning(
    resolved.items,
    origins,
    targetProtocol(services, rest["model"]),
  );
  const wire = { ...rest, input: kept };
  if (!keep) return { wire, plan: undefined, warnings };
  const bytes = JSON.stringify(resolved.items).length;
  const cap = services.config.responses.max_bytes;
  if (bytes > cap) {
    throw invalidRequest(
      `input: the conversation is ${bytes} bytes, more than a stored response may hold (${cap}, responses.max_bytes); send store: false, or start a new conversation`,
      "input",
    );
  }
  return {
    wire,
    plan: {
      responseId: newResponseId(),
      userId,
      previousId: typeof previous === "string" ? previous : undefined,
      inputItems: resolved.items.map((item) => ({ item, origin: origins.get(item.id) })),
      createdAt: services.now(),
      ...(background === true ? { background: true } : {}),
      ...(background === true && rest["stream"] === true ? { streamed: true } : {}),
      echo: echoFields(rest),
    },
    warnings,
  };
}

/** The protocol of the channel that would serve `model` first (undefined: no channel does). */
function targetProtocol(services: GatewayServices, model: unknown): string | undefined {
  if (typeof model !== "string") return undefined;
  return services.router.resolve(model)?.candidates[0]?.channel.protocol;
}

/**
 * Reasoning a model of another upstream protocol made (its signature or encrypted content is
 * that provider's, which no other provider accepts) is left out of a conversation moved to
 * another protocol, and said so; it stays stored, so a turn back on its own family has it again.
 */
function withoutForeignReasoning(
  items: readonly StoredItem[],
  origins: ReadonlyMap<string, string | undefined>,
  target: string | undefined,
): { kept: StoredItem[]; warnings: Warning[] } {
  if (target === undefined) return { kept: [...items], warnings: [] };
  const kept: StoredItem[] = [];
  let dropped = 0;
  for (const item of items) {
    const origin = origins.get(item.id);
    if (itemType(item) === "reasoning" && origin !== undefined && origin !== target) dropped++;
    else kept.push(item);
  }
  const warnings: Warning[] =
    dropped === 0
      ? []
      : [
          {
            type: "dropped",
            feature: "input.reasoning",
            message: `${dropped} stored reasoning item(s) made by another upstream protocol are not sent to the ${target} upstream`,
          },
        ];
  return { kept, warnings };
}
