import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cacheScope } from "./cache-scope.js";

const who = fc.record({ user: fc.string({ minLength: 1 }), channel: fc.string({ minLength: 1 }) });

describe("cacheScope", () => {
  it("is a short hex id, the same for the same user and channel", () => {
    fc.assert(
      fc.property(who, (input) => {
        const scope = cacheScope(input);
        expect(scope).toMatch(/^[0-9a-f]{16}$/);
        expect(cacheScope({ ...input })).toBe(scope);
      }),
    );
  });

  it("differs between users, and between channels", () => {
    const alice = cacheScope({ user: "alice", channel: "anthropic" });
    expect(cacheScope({ user: "bob", channel: "anthropic" })).not.toBe(alice);
    expect(cacheScope({ user: "alice", channel: "anthropic-2" })).not.toBe(alice);
    // The two fields cannot be traded for one another by moving characters between them.
    expect(cacheScope({ user: "ali", channel: "ceanthropic" })).not.toBe(alice);
  });

  it("never names the user in clear, even a user id that looks like hex", () => {
    expect(cacheScope({ user: "deadbeef", channel: "c" })).not.toContain("deadbeef");
  });
});
