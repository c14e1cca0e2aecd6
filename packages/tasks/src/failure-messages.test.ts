import { describe, expect, it } from "vitest";
import {
  FAILURE_CODES,
  FAILURE_MESSAGES,
  FAILURE_TYPES,
  failureError,
  localizeMessage,
} from "./failure-messages.js";
import { LANGUAGES } from "./language.js";

describe("failure catalogue", () => {
  it("has every code in all ten languages, none blank", () => {
    for (const code of FAILURE_CODES) {
      expect(Object.keys(FAILURE_MESSAGES[code]).sort()).toEqual([...LANGUAGES].sort());
      for (const language of LANGUAGES)
        expect(FAILURE_MESSAGES[code][language].trim()).not.toBe("");
    }
  });
  it("translations are really translated (no language repeats another's text)", () => {
    for (const code of FAILURE_CODES) {
      expect(new Set(Object.values(FAILURE_MESSAGES[code])).size).toBe(LANGUAGES.length);
    }
  });
  it("CJK, Korean and Russian texts are in their scripts", () => {
    const scripts = {
      zh: /\p{Script=Han}/u,
      ja: /\p{Script=Katakana}|\p{Script=Hiragana}/u,
      ko: /\p{Script=Hangul}/u,
      ru: /\p{Script=Cyrillic}/u,
    };
    for (const code of FAILURE_CODES) {
      for (const [language, script] of Object.entries(scripts)) {
        expect(FAILURE_MESSAGES[code][language as keyof typeof scripts]).toMatch(script);
      }
    }
  });
  it("no catalogue text starts with another code's text (the prefix match stays unambiguous)", () => {
    const all = FAILURE_CODES.flatMap((c) => Object.values(FAILURE_MESSAGES[c]));
    for (const a of all) for (const b of all) if (a !== b) expect(a.startsWith(b)).toBe(false);
  });
});

describe("failureError", () => {
  it("is our English text with the code's type", () => {
    expect(failureError("content_policy_violation")).toEqual({
      code: "content_policy_violation",
      type: "invalid_request_error",
      message: FAILURE_MESSAGES.content_policy_violation.en,
    });
  });
  it("has a standard error type for every code", () => {
    for (const code of FAILURE_CODES) expect(failureError(code).type).toBe(FAILURE_TYPES[code]);
  });
  it("appends the upstream's words in parentheses", () => {
    expect(failureError("upstream_unavailable", " overloaded ").message).toBe(
      "The upstream provider is unavailable. (overloaded)",
    );
    expect(failureError("upstream_unavailable", "  ").message).toBe(
      "The upstream provider is unavailable.",
    );
  });
});

describe("localizeMessage", () => {
  it("translates our codes into each of the ten languages", () => {
    for (const code of FAILURE_CODES) {
      for (const language of LANGUAGES) {
        expect(localizeMessage(failureError(code), language)).toBe(
          FAILURE_MESSAGES[code][language],
        );
      }
    }
  });
  it("keeps the upstream detail verbatim when translating", () => {
    expect(localizeMessage(failureError("source_fetch_failed", "HTTP 403"), "de")).toBe(
      "Ein Eingabebild oder -video konnte nicht abgerufen werden. (HTTP 403)",
    );
  });
  it("no language: the original message", () => {
    expect(localizeMessage(failureError("cancelled"), undefined)).toBe("The task was cancelled.");
  });
  it("upstream text kept when nothing fits: a code that is not ours", () => {
    const upstream = { code: 500, message: "Internal error encountered.", type: "server_error" };
    expect(localizeMessage(upstream, "ja")).toBe("Internal error encountered.");
  });
  it("upstream text kept when nothing fits: our code with a message we did not write", () => {
    const e = {
      code: "generation_failed",
      message: "quota exhausted upstream",
      type: "server_error",
    };
    expect(localizeMessage(e, "fr")).toBe("quota exhausted upstream");
  });
  it("text already in the target language is kept", () => {
    const zh = { ...failureError("cancelled"), message: `${FAILURE_MESSAGES.cancelled.zh} (细节)` };
    expect(localizeMessage(zh, "zh")).toBe(zh.message);
    expect(localizeMessage(failureError("cancelled", "x"), "en")).toBe(
      "The task was cancelled. (x)",
    );
  });
  it("a message stored in one language translates into another", () => {
    const ko = {
      ...failureError("generation_failed"),
      message: FAILURE_MESSAGES.generation_failed.ko,
    };
    expect(localizeMessage(ko, "es")).toBe(FAILURE_MESSAGES.generation_failed.es);
  });
});
