import { describe, expect, it } from "vitest";
import { ignoredNativeBoundaries } from "./ignored-native-boundaries.js";

const MARK = { type: "ephemeral" };

describe("ignoredNativeBoundaries (rule 1, native bodies)", () => {
  it("reports a boundary inside systemInstruction (either spelling) as dropped", () => {
    const warnings = ignoredNativeBoundaries({
      systemInstruction: { parts: [{ text: "a" }, { text: "b", cache_control: MARK }] },
      system_instruction: { parts: [{ text: "c", cache_control: MARK }] },
    });
    expect(warnings.map((w) => [w.type, w.feature])).toEqual([
      ["dropped", "system[1].cacheControl"],
      ["dropped", "system[0].cacheControl"],
    ]);
    expect(warnings[0]?.message).toMatch(/^systemInstruction\.parts\[1\]\.cache_control: /);
    expect(warnings[1]?.message).toMatch(/^system_instruction\.parts\[0\]\.cache_control: /);
  });

  it("reports one on a tool or a function declaration (either spelling)", () => {
    const warnings = ignoredNativeBoundaries({
      tools: [
        { cache_control: MARK, functionDeclarations: [{ name: "f" }] },
        { function_declarations: [{ name: "g" }, { name: "h", cache_control: MARK }] },
      ],
    });
    expect(warnings.map((w) => w.feature)).toEqual([
      "tools[0].cacheControl",
      "tools[1].cacheControl",
    ]);
    expect(warnings[1]?.message).toMatch(
      /^tools\[1\]\.function_declarations\[1\]\.cache_control: /,
    );
  });

  it("leaves boundaries on contents alone and reads odd shapes without throwing", () => {
    expect(
      ignoredNativeBoundaries({
        contents: [{ role: "user", parts: [{ text: "x", cache_control: MARK }] }],
        systemInstruction: "not an object",
        tools: [null, 3, { functionDeclarations: "no" }],
      }),
    ).toEqual([]);
    expect(ignoredNativeBoundaries({ tools: {} })).toEqual([]);
  });
});
