import { GatewayError } from "@interlingua/errors";
import { describe, expect, it } from "vitest";
import { MAX_INLINED_REFS, sanitizeNativeSchema } from "./sanitize-native-schema.js";

/** `n` definitions, each pointing twice at the next: inlining them all makes 2^n schemas. */
function doubling(n: number): Record<string, unknown> {
  const defs: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    defs[`d${i}`] = {
      type: "object",
      properties: { l: { $ref: `#/$defs/d${i + 1}` }, r: { $ref: `#/$defs/d${i + 1}` } },
    };
  }
  defs[`d${n}`] = { type: "string" };
  return { type: "object", $defs: defs, properties: { x: { $ref: "#/$defs/d0" } } };
}

describe("sanitizeNativeSchema: $ref inlining is bounded (issue 15, item 6)", () => {
  it("inlines ordinary refs", () => {
    const out = sanitizeNativeSchema(doubling(3)) as { properties: Record<string, unknown> };
    expect(JSON.stringify(out)).not.toContain("$ref");
    expect(out.properties["x"]).toMatchObject({ properties: { l: { properties: {} } } });
  });

  it("refuses, quickly and with a 400, a schema whose refs multiply past the budget", () => {
    const started = performance.now();
    let thrown: unknown;
    try {
      sanitizeNativeSchema(doubling(40));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GatewayError);
    expect((thrown as GatewayError).status).toBe(400);
    expect((thrown as GatewayError).message).toContain(String(MAX_INLINED_REFS));
    // 2^40 inlined refs would never finish: any bound far below that tells a refusal apart.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
