import { describe, expect, it } from "vitest";
import { rateLimited } from "./constructors.js";
import { parseDurationSeconds, parseRetryAfterHeader, retryAfterHeader } from "./retry-delay.js";

describe("retry delays", () => {
  it.each([
    ["34.4s", 35],
    ["13s", 13],
    ["0s", 0],
    ["0.001s", 1],
    [" 2s ", 2],
    ["2", undefined],
    ["2m", undefined],
    ["-1s", undefined],
    [13, undefined],
    [null, undefined],
  ])("Duration %o -> %o", (duration, seconds) => {
    expect(parseDurationSeconds(duration)).toBe(seconds);
  });

  it.each([
    ["20", 20],
    ["1.5", 2],
    ["", undefined],
    [null, undefined],
    ["soon", undefined],
    ["Wed, 21 Oct 2015 07:28:30 GMT", 30],
    ["Wed, 21 Oct 2015 07:27:00 GMT", 0],
  ])("Retry-After %o -> %o", (header, seconds) => {
    expect(parseRetryAfterHeader(header, Date.parse("Wed, 21 Oct 2015 07:28:00 GMT"))).toBe(
      seconds,
    );
  });

  it("gives the header to send", () => {
    expect(retryAfterHeader(rateLimited("x", { retryAfterSeconds: 12 }))).toBe("12");
    expect(retryAfterHeader(rateLimited("x"))).toBeUndefined();
  });
});
