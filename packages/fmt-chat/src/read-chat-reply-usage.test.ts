import { isUsageKnown, type Usage } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { chatProtocol } from "./chat-protocol.js";
import { parseChatResponse } from "./parse-chat-response.js";
import { readChatReplyUsage } from "./read-chat-reply-usage.js";
import { chatResponseWire, fc } from "./testing.js";

/** What the full parse makes of a reply's usage: undefined when it throws or reports none. */
function parsedUsage(wire: unknown): Usage | undefined {
  try {
    const usage = parseChatResponse(wire).usage;
    return isUsageKnown(usage) ? usage : undefined;
  } catch {
    return undefined;
  }
}

/** Values a lying or broken upstream may put where a count or a tier goes. */
const hostile = fc.constantFrom<unknown>(
  -1,
  1.5,
  "12",
  2 ** 53,
  1e300,
  Number.NaN,
  null,
  true,
  {},
  [],
  [3],
  undefined,
  0,
  7,
  "flex",
);
const PATHS: readonly (readonly string[])[] = [
  ["usage"],
  ["usage", "prompt_tokens"],
  ["usage", "completion_tokens"],
  ["usage", "total_tokens"],
  ["usage", "prompt_tokens_details"],
  ["usage", "prompt_tokens_details", "cached_tokens"],
  ["usage", "prompt_tokens_details", "cache_write_tokens"],
  ["usage", "completion_tokens_details"],
  ["usage", "completion_tokens_details", "reasoning_tokens"],
  ["service_tier"],
];

/** A copy of `wire` with the value at `path` replaced (made where it is missing). */
function withValueAt(wire: unknown, path: readonly string[], value: unknown): unknown {
  const copy = structuredClone(wire) as Record<string, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) {
    const next = at[key];
    if (typeof next !== "object" || next === null) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[path.at(-1)!] = value;
  return copy;
}

describe("readChatReplyUsage reads what the full parse reads", () => {
  it("on every generated reply: the same usage, undefined exactly when none is reported", () => {
    fc.assert(
      fc.property(chatResponseWire, (wire) => {
        expect(readChatReplyUsage(wire)).toStrictEqual(parsedUsage(wire));
      }),
    );
  });

  it("on a hostile usage field: undefined, or the very usage the full parse makes", () => {
    fc.assert(
      fc.property(chatResponseWire, fc.constantFrom(...PATHS), hostile, (wire, path, value) => {
        const broken = withValueAt(wire, path, value);
        expect(readChatReplyUsage(broken)).toStrictEqual(parsedUsage(broken));
      }),
    );
  });

  it("is the chat protocol's reply usage reader", () => {
    expect(chatProtocol.replyUsage).toBe(readChatReplyUsage);
    expect(readChatReplyUsage("not an object")).toBeUndefined();
  });
});
