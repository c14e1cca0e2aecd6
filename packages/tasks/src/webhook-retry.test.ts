import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { taskStatuses } from "./task-status.js";
import {
  type DeliveryAttempt,
  nextDeliveryStep,
  pushesOn,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_TIMEOUT_MS,
} from "./webhook-retry.js";

describe("pushesOn (docs/api-reference.md Events item 3)", () => {
  it("pushes on completed and failed only; never on pending, processing or cancelled", () => {
    expect(taskStatuses.filter(pushesOn)).toEqual(["completed", "failed"]);
  });
});

describe("nextDeliveryStep (docs/api-reference.md Events item 5)", () => {
  it("the schedule is 10 s, 30 s, 60 s with a 10 s receiver timeout", () => {
    expect(WEBHOOK_RETRY_DELAYS_MS).toEqual([10_000, 30_000, 60_000]);
    expect(WEBHOOK_TIMEOUT_MS).toBe(10_000);
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(4);
  });
  it("2xx is delivered", () => {
    for (const status of [200, 201, 204, 299]) {
      expect(nextDeliveryStep(1, { status })).toEqual({ done: "delivered" });
    }
  });
  it("4xx stops at once, even 429 and 408", () => {
    for (const status of [400, 404, 408, 410, 429, 499]) {
      expect(nextDeliveryStep(1, { status })).toEqual({ done: "failed" });
    }
  });
  it("3xx stops at once (redirects are not followed)", () => {
    expect(nextDeliveryStep(1, { status: 302 })).toEqual({ done: "failed" });
  });
  it("5xx, timeouts and network errors walk the schedule, then give up after the third retry", () => {
    const attempts: DeliveryAttempt[] = [
      { status: 500 },
      { timeout: true },
      { networkError: "ECONNRESET" },
    ];
    for (const attempt of attempts) {
      expect([1, 2, 3, 4].map((n) => nextDeliveryStep(n, attempt))).toEqual([
        { retryInMs: 10_000 },
        { retryInMs: 30_000 },
        { retryInMs: 60_000 },
        { done: "failed" },
      ]);
    }
  });
  it("500 then 200 is two deliveries: a retry in 10 s, then delivered", () => {
    expect(nextDeliveryStep(1, { status: 503 })).toEqual({ retryInMs: 10_000 });
    expect(nextDeliveryStep(2, { status: 200 })).toEqual({ done: "delivered" });
  });

  const attempt: fc.Arbitrary<DeliveryAttempt> = fc.oneof(
    fc.integer({ min: 100, max: 599 }).map((status) => ({ status })),
    fc.constant({ timeout: true as const }),
    fc.string().map((networkError) => ({ networkError })),
  );

  it("property: never retries after a 4xx", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 400, max: 499 }),
        fc.integer({ min: -2, max: 20 }),
        (status, n) => {
          expect(nextDeliveryStep(n, { status })).toEqual({ done: "failed" });
        },
      ),
    );
  });
  it("property: never more than 3 retries, whatever the receivers answer", () => {
    fc.assert(
      fc.property(fc.array(attempt, { minLength: 1, maxLength: 12 }), (answers) => {
        let made = 0;
        let retries = 0;
        for (const answer of answers) {
          made += 1;
          const step = nextDeliveryStep(made, answer);
          if (!("retryInMs" in step)) break;
          retries += 1;
          expect(WEBHOOK_RETRY_DELAYS_MS).toContain(step.retryInMs);
        }
        expect(retries).toBeLessThanOrEqual(3);
        expect(made).toBeLessThanOrEqual(WEBHOOK_MAX_ATTEMPTS);
      }),
    );
  });
});
