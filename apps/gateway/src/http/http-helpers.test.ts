import { describe, expect, it } from "vitest";
import { shouldWrap, wrapJsonText } from "../contract/client-contract.ts";
import { readBodyCapped } from "../contract/read-body.ts";
import { parseNativeTarget } from "./native-target.ts";

describe("envelope switch", () => {
  it("wraps by setting, the header overriding it either way; bare endpoints never wrap", () => {
    expect(shouldWrap(true, "spec", null)).toBe(true);
    expect(shouldWrap(true, "spec", "bare")).toBe(false);
    expect(shouldWrap(true, "bare", null)).toBe(false);
    expect(shouldWrap(true, "bare", " SPEC ")).toBe(true);
    expect(shouldWrap(true, "spec", "nonsense")).toBe(true);
    expect(shouldWrap(false, "spec", "spec")).toBe(false);
  });

  it("wraps serialised JSON without re-parsing it", () => {
    expect(JSON.parse(wrapJsonText('{"a":[1,2]}'))).toEqual({ code: 200, data: { a: [1, 2] } });
  });
});

describe("parseNativeTarget", () => {
  it("splits model and method at the last colon", () => {
    expect(parseNativeTarget("txtC-2.5-pro:generateContent")).toEqual({
      model: "txtC-2.5-pro",
      method: "generateContent",
      stream: false,
    });
    expect(parseNativeTarget("txtC-3.6-flash%3AstreamGenerateContent")).toEqual({
      model: "txtC-3.6-flash",
      method: "streamGenerateContent",
      stream: true,
    });
  });

  it("refuses other methods, a missing model and malformed escapes", () => {
    expect(parseNativeTarget("m:countTokens")).toBeUndefined();
    expect(parseNativeTarget(":generateContent")).toBeUndefined();
    expect(parseNativeTarget("generateContent")).toBeUndefined();
    expect(parseNativeTarget("m%ZZ:generateContent")).toBeUndefined();
  });
});

describe("readBodyCapped", () => {
  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    new Request("http://x/", { method: "POST", body, headers, duplex: "half" } as RequestInit);

  it("reads a body within the cap", async () => {
    expect(await readBodyCapped(post("héllo"), 6)).toEqual({ ok: true, text: "héllo" });
  });

  it("refuses a declared length above the cap without reading", async () => {
    expect(await readBodyCapped(post("x".repeat(10), { "content-length": "10" }), 5)).toEqual({
      ok: false,
      kind: "too-large",
      limit: 5,
    });
  });

  it("stops reading a streamed body as soon as it passes the cap", async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(100));
      },
    });
    expect(await readBodyCapped(post(endless), 250)).toEqual({
      ok: false,
      kind: "too-large",
      limit: 250,
    });
    expect(pulled).toBeLessThan(6);
  });
});
