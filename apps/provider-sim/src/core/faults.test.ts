import { describe, expect, it } from "vitest";
import { createFaultBook } from "./fault-book.ts";
import { FaultSpecError, NO_FAULT, parseFault } from "./faults.ts";

describe("parseFault", () => {
  it("reads every item", () => {
    expect(
      parseFault(
        "status=429, retry-after=3; latency=10 chunk-delay=5,tail=2,reset-after=2,malformed,error-after=4,hang,times=2,cache-create=503",
      ),
    ).toEqual({
      status: 429,
      retryAfterSeconds: 3,
      latencyMs: 10,
      chunkDelayMs: 5,
      promptTail: 2,
      resetAfter: 2,
      malformedAt: 1,
      errorAfter: 4,
      hang: true,
      times: 2,
      cacheCreateStatus: 503,
    });
  });

  it("refuses unknown items and bad numbers", () => {
    expect(() => parseFault("explode")).toThrow(FaultSpecError);
    expect(() => parseFault("status=abc")).toThrow(FaultSpecError);
    expect(() => parseFault("status=200")).toThrow(FaultSpecError);
  });
});

describe("fault book", () => {
  it("caps delays", () => {
    const book = createFaultBook(undefined, 50);
    expect(
      book.resolve({ header: "latency=999999", directive: undefined, key: "" }).latencyMs,
    ).toBe(50);
  });

  it("combines header and directive, else uses the default", () => {
    const book = createFaultBook("status=503", 1000);
    expect(book.resolve({ header: "status=500", directive: "latency=5", key: "" })).toMatchObject({
      status: 500,
      latencyMs: 5,
    });
    expect(book.resolve({ header: undefined, directive: undefined, key: "" }).status).toBe(503);
  });

  it("applies times=N to the first N requests of a conversation", () => {
    const book = createFaultBook(undefined, 1000);
    const ask = (key: string) =>
      book.resolve({ header: "status=429,times=2", directive: undefined, key });
    expect(ask("a").status).toBe(429);
    expect(ask("b").status).toBe(429);
    expect(ask("a").status).toBe(429);
    expect(ask("a")).toBe(NO_FAULT);
  });
});
