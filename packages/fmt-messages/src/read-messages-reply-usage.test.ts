import { hostileWireValue, parsedReplyUsage, withValueAt } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { messagesProtocol } from "./messages-protocol.js";
import { parseMessagesResponse } from "./parse-messages-response.js";
import { readMessagesReplyUsage } from "./read-messages-reply-usage.js";
import { fc, wireResponse } from "./testing.js";

const PATHS: readonly (readonly string[])[] = [
  ["usage"],
  ["usage", "input_tokens"],
  ["usage", "output_tokens"],
  ["usage", "cache_creation_input_tokens"],
  ["usage", "cache_read_input_tokens"],
  ["usage", "cache_creation"],
  ["usage", "cache_creation", "ephemeral_5m_input_tokens"],
  ["usage", "cache_creation", "ephemeral_1h_input_tokens"],
  ["usage", "service_tier"],
  ["usage", "inference_geo"],
  ["usage", "output_tokens_details"],
  ["usage", "output_tokens_details", "thinking_tokens"],
];

describe("readMessagesReplyUsage reads what the full parse reads", () => {
  it("on every generated reply: the same usage", () => {
    fc.assert(
      fc.property(wireResponse, (wire) => {
        const read = readMessagesReplyUsage(wire);
        expect(read).toStrictEqual(parsedReplyUsage(parseMessagesResponse, wire));
        expect(read).toBeDefined();
      }),
    );
  });

  it("on a hostile usage field: undefined, or the very usage the full parse makes", () => {
    fc.assert(
      fc.property(
        wireResponse,
        fc.constantFrom(...PATHS),
        hostileWireValue,
        (wire, path, value) => {
          const broken = withValueAt(wire, path, value);
          expect(readMessagesReplyUsage(broken)).toStrictEqual(
            parsedReplyUsage(parseMessagesResponse, broken),
          );
        },
      ),
    );
  });

  it("is the messages protocol's reply usage reader", () => {
    expect(messagesProtocol.replyUsage).toBe(readMessagesReplyUsage);
    expect(readMessagesReplyUsage([])).toBeUndefined();
  });
});
