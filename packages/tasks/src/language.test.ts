import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LANGUAGES, normalizeLanguage } from "./language.js";

describe("normalizeLanguage (docs/api-reference.md Events item 4)", () => {
  it("knows exactly the ten languages", () => {
    expect(LANGUAGES).toEqual(["en", "zh", "ja", "ko", "ru", "fr", "de", "id", "pt", "es"]);
  });
  it("is case-insensitive and trims surrounding spaces", () => {
    expect(normalizeLanguage(" ZH ")).toBe("zh");
    expect(normalizeLanguage("Es\t")).toBe("es");
  });
  it("region-tagged values are not recognised", () => {
    for (const tag of ["zh-CN", "pt-BR", "en_US", "zh-Hans"])
      expect(normalizeLanguage(tag)).toBeUndefined();
  });
  it("unsupported values and non-strings give undefined", () => {
    for (const v of ["it", "", "english", 1, null, undefined, ["en"]])
      expect(normalizeLanguage(v)).toBeUndefined();
  });

  const casing = (s: string) =>
    fc
      .array(fc.boolean(), { minLength: s.length, maxLength: s.length })
      .map((up) => [...s].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(""));
  const space = fc.stringMatching(/^[ \t\n]{0,3}$/);

  it("property: case and surrounding space never change the answer", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LANGUAGES).chain((l) => fc.tuple(fc.constant(l), casing(l))),
        space,
        space,
        ([language, cased], before, after) => {
          expect(normalizeLanguage(`${before}${cased}${after}`)).toBe(language);
        },
      ),
    );
  });
  it("property: any string normalises to undefined or one of the ten, the same as its trimmed lowercase", () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const out = normalizeLanguage(raw);
        expect(out === undefined || (LANGUAGES as readonly string[]).includes(out)).toBe(true);
        expect(normalizeLanguage(raw.trim().toLowerCase())).toBe(out);
      }),
    );
  });
});
