import { hostileWireValue, parsedReplyUsage, withValueAt } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { nativeProtocol } from "./native-protocol.js";
import { parseNativeResponse } from "./parse-native-response.js";
import { readNativeReplyUsage } from "./read-native-reply-usage.js";
import { fc, nativeResponseWire } from "./testing.js";

const PATHS: readonly (readonly string[])[] = [
  ["usageMetadata"],
  ["usageMetadata", "promptTokenCount"],
  ["usageMetadata", "candidatesTokenCount"],
  ["usageMetadata", "totalTokenCount"],
  ["usageMetadata", "thoughtsTokenCount"],
  ["usageMetadata", "cachedContentTokenCount"],
  ["usageMetadata", "promptTokensDetails"],
  ["usageMetadata", "serviceTier"],
];

describe("readNativeReplyUsage reads what the full parse reads", () => {
  it("on every generated reply: the same usage, undefined exactly when none is reported", () => {
    fc.assert(
      fc.property(nativeResponseWire, (wire) => {
        expect(readNativeReplyUsage(wire)).toStrictEqual(
          parsedReplyUsage(parseNativeResponse, wire),
        );
      }),
    );
  });

  it("on a hostile usage field: undefined, or the very usage the full parse makes", () => {
    fc.assert(
      fc.property(
        nativeResponseWire,
        fc.constantFrom(...PATHS),
        hostileWireValue,
        (wire, path, value) => {
          const broken = withValueAt(wire, path, value);
          expect(readNativeReplyUsage(broken)).toStrictEqual(
            parsedReplyUsage(parseNativeResponse, broken),
          );
        },
      ),
    );
  });

  it("is the native protocol's reply usage reader", () => {
    expect(nativeProtocol.replyUsage).toBe(readNativeReplyUsage);
    expect(readNativeReplyUsage(null)).toBeUndefined();
  });
});
