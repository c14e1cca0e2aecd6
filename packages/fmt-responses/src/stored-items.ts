// Conversation state of the Responses API kept by the gateway (`store`, `previous_response_id`,
// `item_reference`, `GET /v1/responses/{id}/input_items`): the pure half. Items are kept as the
// Responses API writes them, each with an id, so they can be replayed into any later request.

/** One input or output item as stored: a Responses API item object with its `id`. */
export type StoredItem = Record<string, unknown> & { id: string };

/** Id prefixes OpenAI uses per item type; an item type not listed gets `item_`. */
const ITEM_PREFIX: Readonly<Record<string, string>> = {
  message: "msg",
  function_call: "fc",
  function_call_output: "fco",
  reasoning: "rs",
};

/** An item's type; a message item may leave `type` out (it has a `role`). */
export const itemType = (item: Record<string, unknown>): string =>
  typeof item["type"] === "string" ? item["type"] : "message";

/**
 * The client's `input` as items: a string is one user message; each item without an id gets one
 * (`newId` makes the random part), so `input_items` and `item_reference` can name it. Undefined
 * when `input` is neither a string nor an array of objects (the codec's parse names the field).
 */
export function inputAsItems(
  input: unknown,
  newId: () => string,
): Record<string, unknown>[] | undefined {
  if (typeof input === "string") {
    return [
      {
        id: `msg_${newId()}`,
        type: "message",
        role: "user",
        content: [{ type: "input_text", text: input }],
      },
    ];
  }
  if (!Array.isArray(input)) return undefined;
  const isObject = (item: unknown): item is Record<string, unknown> =>
    item !== null && typeof item === "object" && !Array.isArray(item);
  if (!input.every(isObject)) return undefined;
  return input.map((object) => {
    if (itemType(object) === "item_reference") return object;
    if (typeof object["id"] === "string" && object["id"] !== "") return object;
    // An id that is not a string is no id: the item gets one of its own.
    return { ...object, id: `${ITEM_PREFIX[itemType(object)] ?? "item"}_${newId()}` };
  });
}

/** The ids an input names with `{type: "item_reference", id}`, in order. */
export function referencedItemIds(items: readonly Record<string, unknown>[]): string[] {
  const ids: string[] = [];
  for (const item of items) {
    if (itemType(item) === "item_reference" && typeof item["id"] === "string") ids.push(item["id"]);
  }
  return ids;
}

export interface ResolvedItems {
  readonly items: StoredItem[];
  /** References no stored item answered, in order. */
  readonly missing: string[];
}

/**
 * Replaces each `item_reference` with the stored item it names. A reference to an item the
 * history already holds (a client replaying a chain it also names by `previous_response_id`)
 * adds nothing: the same item twice would repeat it to the model.
 */
export function resolveItemReferences(
  history: readonly StoredItem[],
  input: readonly Record<string, unknown>[],
  found: ReadonlyMap<string, StoredItem>,
): ResolvedItems {
  const seen = new Set(history.map((item) => item.id));
  const items: StoredItem[] = [...history];
  const missing: string[] = [];
  for (const item of input) {
    if (itemType(item) !== "item_reference") {
      items.push(item as StoredItem);
      continue;
    }
    const id = typeof item["id"] === "string" ? item["id"] : "";
    if (seen.has(id)) continue;
    const stored = found.get(id);
    if (stored === undefined) missing.push(id);
    else {
      seen.add(id);
      items.push(stored);
    }
  }
  return { items, missing };
}

export interface ItemPageQuery {
  /** An item id: the page starts after it (in the page's order). */
  readonly after?: string | undefined;
  /** 1 to 100; OpenAI's default is 20. */
  readonly limit: number;
  /** `desc` (OpenAI's default): newest first. */
  readonly order: "asc" | "desc";
}

/** OpenAI's list object: `{object: "list", data, first_id, last_id, has_more}`. */
export interface ItemPage {
  readonly object: "list";
  readonly data: StoredItem[];
  readonly first_id: string | null;
  readonly last_id: string | null;
  readonly has_more: boolean;
}

/** One page of a response's input items, as `GET /v1/responses/{id}/input_items` lists them. */
export function pageItems(items: readonly StoredItem[], query: ItemPageQuery): ItemPage {
  const ordered = query.order === "desc" ? [...items].reverse() : [...items];
  const start =
    query.after === undefined ? 0 : ordered.findIndex((item) => item.id === query.after) + 1;
  // An `after` that names no item of this response starts past the end: an empty page.
  const from = query.after !== undefined && start === 0 ? ordered.length : start;
  const data = ordered.slice(from, from + query.limit);
  return {
    object: "list",
    data,
    first_id: data[0]?.id ?? null,
    last_id: data[data.length - 1]?.id ?? null,
    has_more: from + query.limit < ordered.length,
  };
}
