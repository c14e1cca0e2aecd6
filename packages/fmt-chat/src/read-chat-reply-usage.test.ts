import { hostileWireValue, parsedReplyUsage, withValueAt } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { chatProtocol } from "./chat-protocol.js";
import { parseChatResponse } from "./parse-chat-response.js";
import { readChatReplyUsage } from "./read-chat-reply-usage.js";
import { chatResponseWire, fc } from "./testing.js";

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

describe("readChatReplyUsage reads what the full parse reads", () => {
  it("on every generated reply: the same usage, undefined exactly when none is reported", () => {
    fc.assert(
      fc.property(chatResponseWire, (wire) => {
        expect(readChatReplyUsage(wire)).toStrictEqual(parsedReplyUsage(parseChatResponse, wire));
      }),
    );
  });

  it("on a hostile usage field: undefined, or the very usage the full parse makes", () => {
    fc.assert(
      fc.property(
        chatResponseWire,
        fc.constantFrom(...PATHS),
        hostileWireValue,
        (wire, path, value) => {
          const broken = withValueAt(wire, path, value);
          expect(readChatReplyUsage(broken)).toStrictEqual(
            parsedReplyUsage(parseChatResponse, broken),
          );
        },
      ),
    );
  });

  it("is the chat protocol's reply usage reader", () => {
    expect(chatProtocol.replyUsage).toBe(readChatReplyUsage);
    expect(readChatReplyUsage("not an object")).toBeUndefined();
  });
});
