import { describe, expect, it } from "vitest";
import { addFields } from "./add-fields.js";

describe("addFields", () => {
  it("adds what the target lacks, keeps what it has, and honours skip", () => {
    const target: Record<string, unknown> = { a: 1 };
    addFields(target, { a: 2, b: 3, c: 4 }, (key) => key === "c");
    expect(target).toStrictEqual({ a: 1, b: 3 });
  });

  it("copies constructor and toString, never __proto__", () => {
    const target: Record<string, unknown> = {};
    addFields(target, JSON.parse('{"constructor":"c","toString":1,"__proto__":{"x":1}}'));
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(target).toStrictEqual({ constructor: "c", toString: 1 });
  });
});
