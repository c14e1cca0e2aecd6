import { fc } from "@interlingua/core-types/testing";
import { isGatewayError } from "@interlingua/errors";
import { describe, expect, it } from "vitest";
import { native } from "./native-codec.js";
import { normalizeNativeRequest } from "./normalize-native.js";
import { parseNativeRequest } from "./parse-native-request.js";
import { parseNativeResponse } from "./parse-native-response.js";
import { nativeRequestWire, nativeResponseWire } from "./testing.js";

const user = (text: string) => ({ role: "user", parts: [{ text }] });
const body = (extra: object = {}) => ({ contents: [user("hi")], ...extra });

/** The 400 a parse throws: status, type and the named field. */
function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    return { status: error.status, type: error.type, param: error.param, message: error.message };
  }
  throw new Error("expected a 400");
}

describe("safety settings validation", () => {
  it("accepts the four categories and the thresholds", () => {
    const safetySettings = [
      { category: "HARM_CATEGORY_HATE_SPEECH", threshold: "BLOCK_NONE" },
      { category: "HARM_CATEGORY_DANGEROUS_CONTENT", threshold: "BLOCK_ONLY_HIGH" },
      { category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_MEDIUM_AND_ABOVE" },
      { category: "HARM_CATEGORY_SEXUALLY_EXPLICIT", threshold: "BLOCK_LOW_AND_ABOVE" },
    ];
    expect(
      parseNativeRequest(body({ safetySettings }), { model: "m" }).providerExtras?.gemini
        ?.safetySettings,
    ).toEqual(safetySettings);
  });

  it("refuses an unknown threshold with a 400 naming it", () => {
    expect(
      refusal(() =>
        parseNativeRequest(
          body({
            safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_SOME" }],
          }),
          { model: "m" },
        ),
      ),
    ).toMatchObject({
      status: 400,
      type: "invalid_request_error",
      param: "safetySettings[0].threshold",
    });
  });

  it("refuses a category that is not a harm category, and accepts the snake_case field", () => {
    expect(
      refusal(() =>
        parseNativeRequest(
          body({ safety_settings: [{ category: "VIOLENCE", threshold: "BLOCK_NONE" }] }),
          {
            model: "m",
          },
        ),
      ),
    ).toMatchObject({ status: 400, param: "safetySettings[0].category" });
  });
});

describe("validation", () => {
  it.each<[string, unknown, string | undefined]>([
    ["null", null, undefined],
    ["an array", [], undefined],
    ["a string", "hello", undefined],
    ["no contents", {}, "contents"],
    ["empty contents", { contents: [] }, "contents"],
    ["a bad role", { contents: [{ role: "system", parts: [] }] }, "contents[0].role"],
    [
      "a part without payload",
      { contents: [{ parts: [{ somethingElse: { code: "1" } }] }] },
      "contents[0].parts[0]",
    ],
    [
      "a part with two payloads",
      { contents: [{ parts: [{ text: "a", inlineData: { mimeType: "image/png", data: "" } }] }] },
      "contents[0].parts[0]",
    ],
    ["a user turn with no parts", { contents: [{ role: "user", parts: [] }] }, "contents[0].parts"],
    [
      "a model turn with no parts",
      { contents: [user("hi"), { role: "model", parts: [] }, user("and?")] },
      "contents[1].parts",
    ],
    [
      "inline data that is not base64",
      { contents: [{ parts: [{ inlineData: { mimeType: "image/png", data: "!!notbase64!!" } }] }] },
      "contents[0].parts[0].inlineData.data",
    ],
    [
      "inline data in snake_case that is not base64",
      { contents: [{ parts: [{ inline_data: { mime_type: "image/png", data: "abcde" } }] }] },
      "contents[0].parts[0].inlineData.data",
    ],
    [
      "a function response image that is not base64",
      {
        contents: [
          {
            parts: [
              {
                functionResponse: {
                  name: "f",
                  response: {},
                  parts: [
                    { inlineData: { mimeType: "image/png", data: "data:image/png;base64,AA" } },
                  ],
                },
              },
            ],
          },
        ],
      },
      "contents[0].parts[0].functionResponse.parts[0].inlineData.data",
    ],
    [
      "a bad ttl",
      { contents: [{ parts: [{ text: "a", cache_control: { type: "ephemeral", ttl: "2h" } }] }] },
      "contents[0].parts[0].cache_control.ttl",
    ],
    [
      "temperature above 2",
      body({ generationConfig: { temperature: 2.5 } }),
      "generationConfig.temperature",
    ],
    ["topP above 1", body({ generationConfig: { topP: 1.5 } }), "generationConfig.topP"],
    ["a fractional topK", body({ generationConfig: { topK: 1.5 } }), "generationConfig.topK"],
    [
      "a budget and a level",
      body({ generationConfig: { thinkingConfig: { thinkingBudget: 10, thinkingLevel: "low" } } }),
      "generationConfig.thinkingConfig",
    ],
    [
      "an unknown level",
      body({ generationConfig: { thinkingConfig: { thinkingLevel: "extreme" } } }),
      "generationConfig.thinkingConfig.thinkingLevel",
    ],
    [
      "a call in a user turn",
      { contents: [{ role: "user", parts: [{ functionCall: { name: "f" } }] }] },
      "contents[0].parts[0]",
    ],
    [
      "a thought in a user turn",
      { contents: [{ role: "user", parts: [{ text: "t", thought: true }] }] },
      "contents[0].parts[0].thought",
    ],
    [
      "a response in a model turn",
      { contents: [{ role: "model", parts: [{ functionResponse: { name: "f", response: {} } }] }] },
      "contents[0].parts[0]",
    ],
    [
      "non-text system parts",
      body({ systemInstruction: { parts: [{ inlineData: { mimeType: "image/png", data: "" } }] } }),
      "systemInstruction.parts[0].text",
    ],
    [
      "a tool that is not an object",
      body({ tools: [{ googleSearch: true }] }),
      "tools[0].googleSearch",
    ],
    [
      "a nameless function",
      body({ tools: [{ functionDeclarations: [{ description: "x" }] }] }),
      "tools[0].functionDeclarations[0].name",
    ],
    [
      "an unknown calling mode",
      body({ toolConfig: { functionCallingConfig: { mode: "SOMETIMES" } } }),
      "toolConfig.functionCallingConfig.mode",
    ],
  ])("refuses %s with a 400", (_, wire, param) => {
    const error = refusal(() => parseNativeRequest(wire, { model: "m" }));
    expect(error.status).toBe(400);
    expect(error.type).toBe("invalid_request_error");
    expect(error.param).toBe(param);
  });

  it("never throws anything but a GatewayError on arbitrary input", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (wire) => {
        for (const run of [() => native.request.parse(wire), () => parseNativeResponse(wire)]) {
          try {
            run();
          } catch (error) {
            expect(isGatewayError(error)).toBe(true);
          }
        }
      }),
    );
  });

  it("never throws anything but a GatewayError on a valid body with one value replaced", () => {
    const paths = (value: unknown, at: (string | number)[] = []): (string | number)[][] => {
      if (typeof value !== "object" || value === null) return [at];
      const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
      return [
        at,
        ...keys.flatMap((k) => paths((value as Record<string | number, unknown>)[k], [...at, k])),
      ];
    };
    const mutated = (wire: unknown, pick: number, replacement: unknown) => {
      const copy = JSON.parse(JSON.stringify(wire));
      const all = paths(copy).filter((p) => p.length > 0);
      if (all.length === 0) return copy;
      const path = all[pick % all.length] as (string | number)[];
      let node = copy;
      for (const key of path.slice(0, -1)) node = node[key];
      node[path[path.length - 1] as string | number] = replacement;
      return copy;
    };
    const onlyGatewayErrors = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        expect(isGatewayError(error)).toBe(true);
      }
    };
    fc.assert(
      fc.property(
        nativeRequestWire,
        fc.nat(),
        fc.jsonValue({ maxDepth: 2 }),
        (wire, pick, value) => {
          onlyGatewayErrors(() => parseNativeRequest(mutated(wire, pick, value), { model: "m" }));
        },
      ),
    );
    fc.assert(
      fc.property(
        nativeResponseWire,
        fc.nat(),
        fc.jsonValue({ maxDepth: 2 }),
        (wire, pick, value) => {
          onlyGatewayErrors(() => parseNativeResponse(mutated(wire, pick, value)));
        },
      ),
    );
  });

  it("needs a model: from the path, or from the body", () => {
    expect(refusal(() => native.request.parse(body()))).toMatchObject({
      status: 400,
      param: "model",
    });
    expect(native.request.parse(body({ model: "models/gemini-2.5-pro" })).model).toBe(
      "gemini-2.5-pro",
    );
    expect(
      parseNativeRequest(body({ model: "models/x" }), { model: "txtC-2.5-pro", stream: true }),
    ).toMatchObject({
      model: "txtC-2.5-pro",
      stream: true,
    });
  });
});

describe("inline data", () => {
  it.each([
    ["standard, padded", "iVBORw0KGgo="],
    ["standard, unpadded", "iVBORw0KGgo"],
    ["URL-safe", "ab-_cd"],
    ["wrapped across lines", "iVBO\nRw0K"],
    ["empty", ""],
  ])("takes base64 as proto3 JSON readers do: %s", (_, data) => {
    const request = parseNativeRequest(
      { contents: [{ parts: [{ inlineData: { mimeType: "image/png", data } }] }] },
      { model: "m" },
    );
    expect(request.messages[0]?.parts[0]).toMatchObject({ source: { type: "base64", data } });
  });
});

describe("what real clients send", () => {
  it("reads the snake_case spellings", () => {
    const request = parseNativeRequest(
      {
        contents: [
          {
            role: "user",
            parts: [
              { text: "see" },
              { inline_data: { mime_type: "image/png", data: "AAAA" } },
              { file_data: { mime_type: "application/pdf", file_uri: "https://x.dev/a.pdf" } },
            ],
          },
        ],
        system_instruction: { parts: [{ text: "be brief" }] },
        generation_config: { max_output_tokens: 100, thinking_config: { thinking_budget: 0 } },
        tool_config: { function_calling_config: { mode: "ANY", allowed_function_names: ["f"] } },
        tools: [{ function_declarations: [{ name: "f" }] }, { google_search: {} }],
        cached_content: "cachedContents/abc",
      },
      { model: "m" },
    );
    expect(request).toEqual({
      model: "m",
      system: [{ type: "text", text: "be brief" }],
      messages: [
        {
          role: "user",
          parts: [
            { type: "text", text: "see" },
            { type: "image", source: { type: "base64", mediaType: "image/png", data: "AAAA" } },
            {
              type: "file",
              source: { type: "url", url: "https://x.dev/a.pdf", mediaType: "application/pdf" },
            },
          ],
        },
      ],
      sampling: { maxTokens: 100 },
      thinking: { type: "disabled" },
      tools: [
        { type: "function", name: "f", parameters: { type: "object", properties: {} } },
        { type: "web_search" },
      ],
      toolChoice: { type: "tool", name: "f" },
      providerExtras: { gemini: { cachedContent: "cachedContents/abc" } },
      stream: false,
    });
  });

  it("ignores a cache_control inside systemInstruction, keeps one on a content part", () => {
    const request = parseNativeRequest(
      {
        systemInstruction: {
          parts: [{ text: "sys", cache_control: { type: "ephemeral", ttl: "9h" } }],
        },
        contents: [
          { parts: [{ text: "long", cache_control: { type: "ephemeral", ttl: "1h" } }] },
          user("q"),
        ],
      },
      { model: "m" },
    );
    expect(request.system).toEqual([{ type: "text", text: "sys" }]);
    expect(request.messages[0]?.parts[0]).toEqual({
      type: "text",
      text: "long",
      cacheControl: { type: "ephemeral", ttl: "1h" },
    });
  });

  it("keeps unknown top-level fields in extras.native", () => {
    const request = parseNativeRequest(body({ labels: { team: "a" }, serviceTier: "flex" }), {
      model: "m",
    });
    expect(request.extras).toEqual({ native: { labels: { team: "a" }, serviceTier: "flex" } });
  });

  it("maps the generation config, built-in tools and the calling modes", () => {
    const request = parseNativeRequest(
      body({
        generationConfig: {
          temperature: 0.5,
          topP: 0.9,
          topK: 40,
          maxOutputTokens: 256,
          stopSequences: ["END"],
          candidateCount: 2,
          seed: 7,
          presencePenalty: 0.1,
          frequencyPenalty: -0.1,
          responseMimeType: "application/json",
          responseJsonSchema: { type: "object" },
          thinkingConfig: { thinkingLevel: "HIGH", includeThoughts: true },
        },
        tools: [{ codeExecution: {} }, { googleSearch: { timeRangeFilter: { startTime: "t" } } }],
        toolConfig: { functionCallingConfig: { mode: "NONE" } },
      }),
      { model: "m" },
    );
    expect(request).toMatchObject({
      sampling: {
        temperature: 0.5,
        topP: 0.9,
        topK: 40,
        maxTokens: 256,
        stop: ["END"],
        n: 2,
        seed: 7,
        presencePenalty: 0.1,
        frequencyPenalty: -0.1,
      },
      responseFormat: { type: "json-schema", schema: { type: "object" } },
      thinking: { type: "enabled", effort: "high", includeThoughts: true },
      tools: [
        { type: "provider", provider: "gemini", name: "codeExecution", options: {} },
        { type: "web_search", options: { timeRangeFilter: { startTime: "t" } } },
      ],
      toolChoice: { type: "none" },
    });
  });
});

describe("a cache_control where docs/api-reference.md rule 1 puts none", () => {
  const wire = {
    contents: [{ role: "user", parts: [{ text: "hi" }] }],
    tools: [
      {
        functionDeclarations: [
          {
            name: "lookup",
            description: "d",
            parameters: { type: "object", properties: { q: { type: "string" } } },
            cache_control: { type: "ephemeral" },
          },
        ],
        cache_control: { type: "ephemeral", ttl: "1h" },
      },
      { cache_control: { type: "ephemeral" } },
    ],
  };

  it("on a tool entry or a declaration is neither a tool nor carried, and normalizes away", () => {
    const request = parseNativeRequest(wire, { model: "txtC-2.5-pro" });
    expect(request.tools).toEqual([
      {
        type: "function",
        name: "lookup",
        description: "d",
        parameters: { type: "object", properties: { q: { type: "string" } } },
      },
    ]);
    const rendered = native.request.render(request) as Record<string, unknown>;
    expect(JSON.stringify(rendered)).not.toContain("cache_control");
    expect(rendered).toEqual(normalizeNativeRequest(wire));
  });

  it("on a declaration without parameters normalizes away too", () => {
    const bare = {
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      tools: [
        { functionDeclarations: [{ name: "now", cache_control: { type: "ephemeral" } }] },
        {
          functionDeclarations: [
            { name: "f", parametersJsonSchema: { type: "object" }, cache_control: {} },
          ],
        },
      ],
    };
    const normalized = normalizeNativeRequest(bare);
    expect(JSON.stringify(normalized)).not.toContain("cache_control");
    const request = parseNativeRequest(bare, { model: "txtC-2.5-pro" });
    expect(native.request.render(request)).toEqual(normalized);
  });
});
