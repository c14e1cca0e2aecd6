import { describe, expect, it } from "vitest";
import { readApiReference } from "../test/fixtures.js";
import { gatewayStatuses } from "./gateway-status.js";
import { standardErrorTypes } from "./standard-error-type.js";

// The API reference (docs/api-reference.md, from docs/api-reference.md), Errors, "Status and type pairs",
// copied cell by cell; "" is a blank cell.
const specRows = [
  { http: 400, type: "invalid_request_error", native: "INVALID_ARGUMENT" },
  { http: 401, type: "authentication_error", native: "UNAUTHENTICATED" },
  { http: 402, type: "payment_required", native: "PAYMENT_REQUIRED" },
  { http: 403, type: "permission_error", native: "PERMISSION_DENIED" },
  { http: 404, type: "not_found_error", native: "NOT_FOUND" },
  { http: 413, type: "invalid_request_error", native: "" },
  { http: 429, type: "rate_limit_error", native: "RESOURCE_EXHAUSTED" },
  { http: 500, type: "server_error", native: "INTERNAL" },
  { http: 502, type: "bad_gateway", native: "BAD_GATEWAY" },
  { http: 503, type: "", native: "UNAVAILABLE" },
] as const;

// What this package fills the blank cells with (README, "Choices where the spec is silent").
const chosenStandardType: Record<number, string> = { 503: "service_unavailable" };

describe("the tables equal docs/api-reference.md's status table", () => {
  it("has exactly the spec's statuses, in its order", () => {
    expect([...gatewayStatuses]).toEqual(specRows.map((row) => row.http));
  });

  it.each(specRows)("standard type of $http", ({ http, type }) => {
    expect(standardErrorTypes[http]).toBe(type || chosenStandardType[http]);
  });

  it("fills exactly the blank cells with a choice", () => {
    expect(Object.keys(chosenStandardType).map(Number)).toEqual(
      specRows.filter((row) => row.type === "").map((row) => row.http),
    );
  });

  it("copied the rows from the API reference itself", () => {
    // Guards the literal rows above against a typo: the same cells, read from the document.
    const spec = readApiReference();
    const start = spec.indexOf("Status and type pairs");
    expect(start).toBeGreaterThan(-1);
    const table = spec.slice(start);
    const rows = table
      .split("\n")
      .filter((line) => /^\| \d{3} \|/.test(line))
      .map((line) => line.split("|").map((cell) => cell.trim()))
      .map((cells) => ({ http: Number(cells[1]), type: cells[2], native: cells[3] }));
    expect(rows).toEqual(specRows.map((row) => ({ ...row })));
  });
});
