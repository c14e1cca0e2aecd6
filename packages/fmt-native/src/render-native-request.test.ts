import type { Request, Warning } from "@interlingua/core-types";
import * as arb from "@interlingua/core-types/testing";
import { fc } from "@interlingua/core-types/testing";
import { isGatewayError } from "@interlingua/errors";
import { describe, expect, it } from "vitest";
import { nativeRequestSchema } from "./native-api.js";
import { parseNativeRequest } from "./parse-native-request.js";
import { renderNativeRequest, renderNativeUpstreamRequest } from "./render-native-request.js";

const base: Request = {
  model: "txtC-3.6-flash",
  system: [],
  messages: [{ role: "user", parts: [{ type: "text", text: "hi" }] }],
  sampling: {},
  tools: [],
  stream: false,
};

function render(request: Request) {
  const warnings: Warning[] = [];
  const wire = renderNativeRequest(request, { onWarning: (w) => warnings.push(w) });
  return { wire, warnings: warnings.map((w) => `${w.type} ${w.feature}`) };
}

describe("render", () => {
  it("never throws but a 400 on any canonical request, and renders a valid body", () => {
    fc.assert(
      fc.property(arb.request, (request) => {
        try {
          const wire = renderNativeRequest(request);
          expect(nativeRequestSchema.safeParse(JSON.parse(JSON.stringify(wire))).success).toBe(
            true,
          );
        } catch (error) {
          expect(isGatewayError(error)).toBe(true);
          expect((error as { status: number }).status).toBe(400);
        }
      }),
    );
  });

  it("reports every canonical feature it drops or maps", () => {
    const { warnings } = render({
      ...base,
      system: [{ type: "text", text: "s", cacheControl: { type: "ephemeral" } }],
      messages: [
        {
          role: "user",
          name: "ann",
          parts: [
            { type: "image", source: { type: "url", url: "https://x.dev/pic" }, detail: "high" },
            {
              type: "file",
              source: { type: "base64", mediaType: "application/pdf", data: "AA" },
              filename: "a.pdf",
            },
          ],
        },
        {
          role: "assistant",
          parts: [
            { type: "redacted-thinking", data: "xx" },
            { type: "tool-call", id: "c", name: "f", arguments: "[1]" },
          ],
        },
      ],
      tools: [
        {
          type: "function",
          name: "f",
          parameters: { type: "object", additionalProperties: false },
          strict: true,
          cacheControl: { type: "ephemeral" },
        },
        { type: "remote_mcp", url: "https://mcp.dev", timeout: 30 },
        { type: "provider", provider: "anthropic", name: "bash_20241022", options: {} },
      ],
      parallelToolCalls: false,
      user: "u",
      metadata: { a: 1 },
      responseFormat: { type: "json-schema", name: "n", schema: {} },
    });
    expect(warnings).toEqual([
      "dropped parallelToolCalls",
      "dropped user",
      "dropped metadata",
      "dropped system[0].cacheControl",
      "dropped messages[0].name",
      "dropped messages[0].parts[0].detail",
      "mapped messages[0].parts[0].source.url",
      "dropped messages[0].parts[1].filename",
      "dropped messages[1].parts[0]",
      "dropped messages[1].parts[1].arguments",
      "dropped responseFormat",
      "mapped tools[0].parameters",
      "dropped tools[0].strict",
      "dropped tools[0].cacheControl",
      "dropped tools[1]",
      "dropped tools[2]",
    ]);
  });

  it("refuses a file id, which the upstream cannot resolve", () => {
    try {
      renderNativeRequest({
        ...base,
        messages: [
          {
            role: "user",
            parts: [{ type: "file", source: { type: "file-id", fileId: "file-abc" } }],
          },
        ],
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ status: 400, param: "messages[0].parts[0].source.fileId" });
    }
  });

  it("lays out tools: one functionDeclarations entry, built-ins by their own key", () => {
    const { wire } = render({
      ...base,
      tools: [
        { type: "web_search" },
        { type: "function", name: "a", parameters: { type: "object", properties: {} } },
        { type: "provider", provider: "gemini", name: "codeExecution", options: {} },
        {
          type: "function",
          name: "b",
          description: "B",
          parameters: { type: "object", properties: { x: { type: "string" } } },
        },
        { type: "file_search", options: { fileSearchStoreNames: ["s"] } },
      ],
      toolChoice: { type: "required" },
    });
    expect(wire.tools).toEqual([
      { googleSearch: {} },
      {
        functionDeclarations: [
          { name: "a" },
          {
            name: "b",
            description: "B",
            parameters: { type: "object", properties: { x: { type: "string" } } },
          },
        ],
      },
      { codeExecution: {} },
      { fileSearch: { fileSearchStoreNames: ["s"] } },
    ]);
    expect(wire.toolConfig).toEqual({ functionCallingConfig: { mode: "ANY" } });
  });

  it.each<[string, Request["thinking"], string, object, string[]]>([
    [
      "a budget",
      { type: "enabled", budgetTokens: 2048 },
      "txtC-2.5-pro",
      { thinkingBudget: 2048 },
      [],
    ],
    ["disabled", { type: "disabled" }, "txtC-2.5-flash", { thinkingBudget: 0 }, []],
    [
      "adaptive",
      { type: "adaptive", includeThoughts: true },
      "txtC-2.5-pro",
      { thinkingBudget: -1, includeThoughts: true },
      [],
    ],
    [
      "an effort",
      { type: "enabled", effort: "low" },
      "txtC-3-pro-preview",
      { thinkingLevel: "low" },
      [],
    ],
    [
      // "Thinking level is not supported for this model" (2.5 models take only a budget).
      "an effort, to a 2.5 model",
      { type: "enabled", effort: "low" },
      "txtC-2.5-flash",
      { thinkingBudget: 2048 },
      ["mapped thinking.effort"],
    ],
    [
      "both, to a 2.5 model",
      { type: "enabled", budgetTokens: 1024, effort: "high" },
      "txtC-2.5-pro",
      { thinkingBudget: 1024 },
      ["dropped thinking.effort"],
    ],
    [
      "both, to a 3.x model",
      { type: "enabled", budgetTokens: 1024, effort: "high" },
      "txtC-3.1-pro-preview",
      { thinkingLevel: "high" },
      ["dropped thinking.budgetTokens"],
    ],
  ])("renders thinking: %s", (_, thinking, model, expected, warned) => {
    const { wire, warnings } = render({ ...base, model, ...(thinking ? { thinking } : {}) });
    expect(wire.generationConfig?.thinkingConfig).toEqual(expected);
    expect(warnings).toEqual(warned);
  });

  it("keeps the client's image URL type, and guesses one from the URL otherwise", () => {
    const request = parseNativeRequest(
      {
        contents: [
          {
            parts: [
              { fileData: { mimeType: "image/png", fileUri: "https://x.dev/photo" } },
              { fileData: { mimeType: "image/png", fileUri: "https://x.dev/photo.png" } },
            ],
          },
        ],
      },
      { model: "m" },
    );
    expect(request.messages[0]?.parts.map((p) => p.type)).toEqual(["image", "image"]);
    expect(renderNativeRequest(request).contents[0]?.parts).toEqual([
      { fileData: { mimeType: "image/png", fileUri: "https://x.dev/photo" } },
      { fileData: { mimeType: "image/png", fileUri: "https://x.dev/photo.png" } },
    ]);
  });

  describe("an allowed list (OpenAI allowed_tools)", () => {
    const fn = (name: string) =>
      ({ type: "function", name, parameters: { type: "object" } }) as const;
    const tools: Request["tools"] = [fn("f"), fn("g"), fn("h")];

    it("with required is mode ANY with allowedFunctionNames, the tools whole", () => {
      const warnings: Warning[] = [];
      const wire = renderNativeRequest(
        { ...base, tools, toolChoice: { type: "required", allowed: ["f", "h"] } },
        { onWarning: (w) => warnings.push(w) },
      );
      expect(wire.tools?.[0]?.functionDeclarations?.map((d) => d.name)).toEqual(["f", "g", "h"]);
      expect(wire.toolConfig).toEqual({
        functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["f", "h"] },
      });
      expect(warnings).toEqual([]);
    });

    it("with auto is mode AUTO with only the allowed declarations, warned", () => {
      const warnings: Warning[] = [];
      const wire = renderNativeRequest(
        { ...base, tools, toolChoice: { type: "auto", allowed: ["h", "f"] } },
        { onWarning: (w) => warnings.push(w) },
      );
      expect(wire.tools?.[0]?.functionDeclarations?.map((d) => d.name)).toEqual(["f", "h"]);
      expect(wire.toolConfig).toEqual({ functionCallingConfig: { mode: "AUTO" } });
      expect(warnings.map((w) => [w.type, w.feature])).toEqual([["mapped", "tools"]]);
    });
  });

  it("keeps function-calling configs the canonical choice cannot say", () => {
    const wire = {
      contents: [{ parts: [{ text: "x" }] }],
      toolConfig: {
        functionCallingConfig: {
          mode: "VALIDATED",
          allowedFunctionNames: ["a", "b"],
          streamFunctionCallArguments: true,
        },
        retrievalConfig: { languageCode: "en" },
      },
    };
    const request = parseNativeRequest(wire, { model: "m" });
    // VALIDATED with names: auto with an allowed list for other formats, sent back as it came.
    expect(request.toolChoice).toEqual({ type: "auto", allowed: ["a", "b"] });
    expect(renderNativeRequest(request).toolConfig).toEqual(wire.toolConfig);
    // A changed choice wins over what was kept.
    expect(
      renderNativeRequest({ ...request, toolChoice: { type: "none" } }).toolConfig
        ?.functionCallingConfig,
    ).toEqual({
      streamFunctionCallArguments: true,
      mode: "NONE",
    });
  });
});

it("sends a client's VALIDATED with names with its tools whole, not cut to the names", () => {
  const wire = {
    contents: [{ parts: [{ text: "x" }] }],
    tools: [{ functionDeclarations: [{ name: "a" }, { name: "b" }] }, { googleSearch: {} }],
    toolConfig: { functionCallingConfig: { mode: "VALIDATED", allowedFunctionNames: ["a"] } },
  };
  const warnings: Warning[] = [];
  const out = renderNativeRequest(parseNativeRequest(wire, { model: "m" }), {
    onWarning: (w) => warnings.push(w),
  });
  expect(out.tools).toEqual(wire.tools);
  expect(out.toolConfig).toEqual(wire.toolConfig);
  expect(warnings.filter((w) => w.feature === "tools")).toEqual([]);
});

describe("renderNativeUpstreamRequest", () => {
  it("names the path by model and method and strips cache boundaries, reporting each", () => {
    const warnings: Warning[] = [];
    const request: Request = {
      ...base,
      stream: true,
      messages: [
        {
          role: "user",
          parts: [{ type: "text", text: "long", cacheControl: { type: "ephemeral", ttl: "1h" } }],
        },
        { role: "user", parts: [{ type: "text", text: "q" }] },
      ],
    };
    const { path, body } = renderNativeUpstreamRequest(request, {
      onWarning: (w) => warnings.push(w),
    });
    expect(path).toBe("/v1beta/models/txtC-3.6-flash:streamGenerateContent?alt=sse");
    expect(body.contents).toEqual([
      { role: "user", parts: [{ text: "long" }] },
      { role: "user", parts: [{ text: "q" }] },
    ]);
    expect(warnings.map((w) => w.feature)).toEqual(["messages[0].parts[0].cacheControl"]);
    expect(renderNativeUpstreamRequest({ ...base }, { model: "gemini-2.5-pro" }).path).toBe(
      "/v1beta/models/gemini-2.5-pro:generateContent",
    );
  });
});
