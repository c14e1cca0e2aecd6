import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  inputAsItems,
  pageItems,
  referencedItemIds,
  resolveItemReferences,
  type StoredItem,
} from "./stored-items.js";

let n = 0;
const newId = () => `id${++n}`;

describe("stored items", () => {
  it("a string input is one user message with an id; items keep theirs or get one by type", () => {
    expect(inputAsItems("hi", () => "x")).toEqual([
      { id: "msg_x", type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] },
    ]);
    const items = inputAsItems(
      [
        { role: "user", content: "a" },
        { type: "function_call", call_id: "c", name: "f", arguments: "{}" },
        { type: "function_call_output", call_id: "c", output: "r" },
        { type: "reasoning", id: "rs_keep", summary: [] },
        { type: "item_reference", id: "msg_ref" },
      ],
      () => "z",
    );
    expect(items?.map((item) => item["id"])).toEqual([
      "msg_z",
      "fc_z",
      "fco_z",
      "rs_keep",
      "msg_ref",
    ]);
    expect(inputAsItems(42, newId)).toBeUndefined();
    expect(inputAsItems([{ role: "user", content: "a" }, null], newId)).toBeUndefined();
  });

  it("references resolve in place, never repeating an item the history holds", () => {
    const stored: StoredItem = {
      id: "rs_1",
      type: "reasoning",
      summary: [],
      encrypted_content: "s",
    };
    const history: StoredItem[] = [{ id: "msg_0", type: "message", role: "user", content: "q" }];
    const input = [
      { type: "item_reference", id: "msg_0" },
      { type: "item_reference", id: "rs_1" },
      { type: "item_reference", id: "rs_1" },
      { id: "fco_2", type: "function_call_output", call_id: "c", output: "r" },
      { type: "item_reference", id: "gone" },
    ];
    expect(referencedItemIds(input)).toEqual(["msg_0", "rs_1", "rs_1", "gone"]);
    const resolved = resolveItemReferences(history, input, new Map([["rs_1", stored]]));
    expect(resolved.items.map((item) => item.id)).toEqual(["msg_0", "rs_1", "fco_2"]);
    expect(resolved.items[1]).toBe(stored);
    expect(resolved.missing).toEqual(["gone"]);
  });

  it("pages walk every item once, in either order (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 7 }),
        fc.constantFrom("asc" as const, "desc" as const),
        (count, limit, order) => {
          const items = Array.from({ length: count }, (_, i) => ({ id: `it_${i}` }));
          const seen: string[] = [];
          let after: string | undefined;
          for (let guard = 0; guard <= count; guard++) {
            const page = pageItems(items, { after, limit, order });
            seen.push(...page.data.map((item) => item.id));
            expect(page.first_id).toBe(page.data[0]?.id ?? null);
            if (!page.has_more) break;
            after = page.last_id ?? undefined;
          }
          const ids = items.map((item) => item.id);
          expect(seen).toEqual(order === "asc" ? ids : ids.reverse());
        },
      ),
      { numRuns: 60 },
    );
  });

  it("an after naming no item gives an empty page", () => {
    const page = pageItems([{ id: "a" }], { after: "zz", limit: 5, order: "asc" });
    expect(page).toEqual({
      object: "list",
      data: [],
      first_id: null,
      last_id: null,
      has_more: false,
    });
  });
});
