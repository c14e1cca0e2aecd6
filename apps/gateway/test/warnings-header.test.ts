import type { Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import {
  formatWarningsHeader,
  isStrict,
  strictRefusal,
  upstreamModelHeader,
} from "../src/contract/client-contract.ts";

const w = (feature: string, type: Warning["type"] = "dropped"): Warning => ({
  type,
  feature,
  message: "m",
});

describe("x-interlingua-warnings", () => {
  it("is path=action, comma-separated, each pair once, in order", () => {
    expect(
      formatWarningsHeader([w("logprobs"), w("sampling.topK"), w("logprobs"), w("x", "mapped")]),
    ).toBe("logprobs=dropped,sampling.topK=dropped,x=mapped");
    expect(formatWarningsHeader([])).toBeUndefined();
  });

  it("percent-encodes what would break the list or the header", () => {
    const value = formatWarningsHeader([w("a,b=c%"), w("é field")]) ?? "";
    expect(value).toBe("a%2Cb%3Dc%25=dropped,%C3%A9%20field=dropped");
    expect(() => new Headers({ "x-interlingua-warnings": value })).not.toThrow();
  });

  it("writes a lone surrogate (valid in a JSON field name) as U+FFFD instead of throwing", () => {
    const value = formatWarningsHeader([w("\ud800x"), w("y\udc00")]) ?? "";
    expect(value).toBe("%EF%BF%BDx=dropped,y%EF%BF%BD=dropped");
    expect(() => new Headers({ "x-interlingua-warnings": value })).not.toThrow();
    expect(upstreamModelHeader("m\ud800")).toEqual({
      "x-interlingua-upstream-model": "m%EF%BF%BD",
    });
  });

  it("stays under 4000 characters, marking the cut", () => {
    const many = Array.from({ length: 500 }, (_, i) => w(`messages[${i}].parts[0].signature`));
    const value = formatWarningsHeader(many) ?? "";
    expect(value.length).toBeLessThanOrEqual(4000 + ",...=truncated".length);
    expect(value.endsWith(",...=truncated")).toBe(true);
  });
});

describe("x-interlingua-strict", () => {
  it("is on only for true", () => {
    expect(isStrict(new Headers({ "x-interlingua-strict": "true" }))).toBe(true);
    expect(isStrict(new Headers({ "x-interlingua-strict": " TRUE " }))).toBe(true);
    expect(isStrict(new Headers({ "x-interlingua-strict": "1" }))).toBe(false);
    expect(isStrict(new Headers())).toBe(false);
  });

  it("refuses the first drop by name; mapped warnings pass", () => {
    expect(strictRefusal([w("thinking.budgetTokens", "mapped")])).toBeUndefined();
    const error = strictRefusal([w("x", "mapped"), w("top_logprobs"), w("seed")]);
    expect(error?.status).toBe(400);
    expect(error?.message).toMatch(/^top_logprobs: /);
  });
});
