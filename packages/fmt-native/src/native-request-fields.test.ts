import { zodObjectFieldPaths } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { nativeRequestSchema } from "./native-api.js";
import { nativeRequestFields, untranslatedNativeFields } from "./native-request-fields.js";
import { parseNativeRequest } from "./parse-native-request.js";

// Item 5 of issue 20: every field of the native request schema is mapped, warned or refused.

const schemaPaths = zodObjectFieldPaths(nativeRequestSchema, new Set(["generationConfig"]));

/** A value for each warned field, to prove its drop is reported. */
const samples: Record<string, unknown> = {
  responseModalities: ["TEXT", "IMAGE"],
  speechConfig: { voiceConfig: {} },
  imageConfig: { aspectRatio: "16:9" },
  mediaResolution: "MEDIA_RESOLUTION_LOW",
  enableEnhancedCivicAnswers: true,
  audioTimestamp: true,
  routingConfig: { autoMode: {} },
};

describe("native request fields: mapped, warned or refused", () => {
  it("the table names every field of the request schema, and nothing else", () => {
    expect(schemaPaths.filter((p) => nativeRequestFields[p] === undefined)).toEqual([]);
    expect(Object.keys(nativeRequestFields).filter((p) => !schemaPaths.includes(p))).toEqual([]);
  });

  it.each(Object.entries(nativeRequestFields).filter(([, action]) => action !== "mapped"))(
    "%s (%s) is reported when the request leaves this format",
    (path) => {
      const field = path.replace(/^generationConfig\./, "");
      expect(samples).toHaveProperty(field);
      const request = parseNativeRequest(
        {
          contents: [{ role: "user", parts: [{ text: "hi" }] }],
          generationConfig: { [field]: samples[field] },
        },
        { model: "txtC-2.5-pro" },
      );
      expect(untranslatedNativeFields(request)).toContain(path);
    },
  );

  it("reports unknown top-level fields, toolConfig extras and declaration extras too", () => {
    const request = parseNativeRequest(
      {
        contents: [{ role: "user", parts: [{ text: "hi" }] }],
        labels: { team: "a" },
        tools: [{ functionDeclarations: [{ name: "f", behavior: "NON_BLOCKING" }] }],
        toolConfig: { retrievalConfig: { languageCode: "en" } },
      },
      { model: "txtC-2.5-pro" },
    );
    expect(untranslatedNativeFields(request)).toEqual(
      expect.arrayContaining([
        "labels",
        "toolConfig.retrievalConfig",
        "tools.functionDeclarations.behavior",
      ]),
    );
  });

  it("mode ANY with an allow-list of several names is translated: required, allowed", () => {
    const request = parseNativeRequest(
      {
        contents: [{ role: "user", parts: [{ text: "hi" }] }],
        tools: [{ functionDeclarations: [{ name: "a" }, { name: "b" }, { name: "c" }] }],
        toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["a", "b"] } },
      },
      { model: "txtC-2.5-pro" },
    );
    expect(request.toolChoice).toEqual({ type: "required", allowed: ["a", "b"] });
    expect(untranslatedNativeFields(request)).toEqual([]);
  });

  it("VALIDATED with names is auto with an allowed list: only the validation is lost", () => {
    const request = parseNativeRequest(
      {
        contents: [{ role: "user", parts: [{ text: "hi" }] }],
        tools: [{ functionDeclarations: [{ name: "a" }, { name: "b" }, { name: "c" }] }],
        toolConfig: {
          functionCallingConfig: { mode: "VALIDATED", allowedFunctionNames: ["a", "b"] },
        },
      },
      { model: "txtC-2.5-pro" },
    );
    expect(request.toolChoice).toEqual({ type: "auto", allowed: ["a", "b"] });
    expect(untranslatedNativeFields(request)).toEqual(["toolConfig.functionCallingConfig.mode"]);
  });

  it("names with a mode that takes none name the list, not only the mode (issue 26)", () => {
    const request = parseNativeRequest(
      {
        contents: [{ role: "user", parts: [{ text: "hi" }] }],
        tools: [{ functionDeclarations: [{ name: "a" }, { name: "b" }, { name: "c" }] }],
        toolConfig: { functionCallingConfig: { mode: "AUTO", allowedFunctionNames: ["a", "b"] } },
      },
      { model: "txtC-2.5-pro" },
    );
    expect(request.toolChoice).toEqual({ type: "auto" });
    expect(untranslatedNativeFields(request)).toEqual([
      "toolConfig.functionCallingConfig.mode",
      "toolConfig.functionCallingConfig.allowedFunctionNames",
    ]);
  });

  it("a plain request leaves nothing behind", () => {
    const request = parseNativeRequest(
      {
        contents: [{ role: "user", parts: [{ text: "hi" }] }],
        generationConfig: { temperature: 0.5, responseMimeType: "application/json" },
      },
      { model: "txtC-2.5-pro" },
    );
    expect(untranslatedNativeFields(request)).toEqual([]);
  });
});
