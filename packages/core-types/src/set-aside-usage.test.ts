import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { setAsideMalformedUsage } from "./usage-values.js";
import type { Warning } from "./warning.js";

const counts = z.object({ input: z.number().check(z.int(), z.gte(0)) });
const aside = (wire: unknown) => {
  const warnings: Warning[] = [];
  const out = setAsideMalformedUsage(wire, "usage", counts, (w) => warnings.push(w));
  return { out, warnings: warnings.map((w) => `${w.feature}=${w.type}`) };
};

describe("setAsideMalformedUsage", () => {
  it("keeps a reply whose usage is token counts as it is, without a warning", () => {
    const wire = { text: "hi", usage: { input: 3 } };
    expect(aside(wire)).toEqual({ out: wire, warnings: [] });
  });

  it.each([
    ["negative", { input: -1 }],
    ["fractional", { input: 1.5 }],
    ["a string", { input: "3" }],
    ["null", null],
    ["not an object", 7],
  ])("sets aside usage that is %s, and warns", (_name, usage) => {
    expect(aside({ text: "hi", usage })).toEqual({
      out: { text: "hi" },
      warnings: ["usage=dropped"],
    });
  });

  it("warns of a missing usage, and leaves what is not an object to the reply's schema", () => {
    expect(aside({ text: "hi" })).toEqual({ out: { text: "hi" }, warnings: ["usage=dropped"] });
    expect(aside("nope")).toEqual({ out: "nope", warnings: [] });
  });
});
