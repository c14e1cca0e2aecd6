import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appendRequestId, splitRequestId } from "./request-id-suffix.js";

describe("the request id suffix", () => {
  it("appends in the spec's place, the end of the message", () => {
    expect(appendRequestId("Overloaded", "req_1")).toBe("Overloaded (request id: req_1)");
    expect(appendRequestId("Overloaded", undefined)).toBe("Overloaded");
  });

  it("splits off exactly what it appended", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string().filter((id) => !id.includes(" (request id: ")),
        (message, id) => {
          expect(splitRequestId(appendRequestId(message, id))).toEqual({ message, requestId: id });
        },
      ),
    );
  });

  it("leaves a message without a suffix alone", () => {
    expect(splitRequestId("plain (not an id)")).toEqual({ message: "plain (not an id)" });
  });
});
