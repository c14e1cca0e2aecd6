import type { Request } from "@interlingua/core-types";
import { GatewayError } from "@interlingua/errors";
import { describe, expect, it } from "vitest";
import { parseResponsesRequest } from "./parse-responses-request.js";
import { renderInterlinguaResponsesRequest } from "./render-responses-request.js";

const png =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/** Base64 of `bytes` zero bytes, padded as encoders write it, without building the bytes. */
const base64Of = (bytes: number): string => {
  const padding = (3 - (bytes % 3)) % 3;
  return "A".repeat(Math.ceil(bytes / 3) * 4 - padding) + "=".repeat(padding);
};

function rejection(wire: unknown): GatewayError {
  try {
    parseResponsesRequest(wire);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error("expected a 400");
}

/** A second turn showing one image: its `image_url` is `input[1].content[1].image_url`. */
const seeing = (image_url: string) => ({
  model: "txtA-5.2-pro",
  input: [
    { role: "user", content: "first turn" },
    {
      role: "user",
      content: [
        { type: "input_text", text: "see" },
        { type: "input_image", image_url },
      ],
    },
  ],
});
describe("parseResponsesRequest", () => {
  it("string input becomes one user text message", () => {
    expect(parseResponsesRequest({ model: "txtA-5.2-pro", input: "What is 2+2?" })).toEqual({
      model: "txtA-5.2-pro",
      system: [],
      messages: [{ role: "user", parts: [{ type: "text", text: "What is 2+2?" }] }],
      sampling: {},
      tools: [],
      stream: false,
    } satisfies Request);
  });

  it("mixed text and image blocks keep their order", () => {
    const request = parseResponsesRequest({
      model: "txtA-5.2-pro",
      input: [
        {
          role: "user",
          content: [
            { type: "input_image", image_url: "https://example.com/a.jpg" },
            { type: "input_text", text: "Compare this one" },
            { type: "input_image", image_url: `data:image/png;base64,${png}`, detail: "low" },
            { type: "input_text", text: "with this one." },
          ],
        },
      ],
    });
    expect(request.messages).toEqual([
      {
        role: "user",
        parts: [
          { type: "image", source: { type: "url", url: "https://example.com/a.jpg" } },
          { type: "text", text: "Compare this one" },
          {
            type: "image",
            source: { type: "base64", mediaType: "image/png", data: png },
            detail: "low",
          },
          { type: "text", text: "with this one." },
        ],
      },
    ]);
  });

  it("data URI prefix is mandatory: each invalid form is a 400 naming the field path", () => {
    const invalid = [
      png, // bare base64
      `data:image/bmp;base64,${png}`, // another media type
      `data:application/pdf;base64,${png}`,
      `data:image/png,${png}`, // no base64 marker
      `data:image/png;base64,`, // no data
      `data:image/png;base64,${png}!!`, // not base64
      "ftp://example.com/a.png",
      "example.com/a.png",
    ];
    for (const image_url of invalid) {
      const error = rejection(seeing(image_url));
      expect({ image_url, status: error.status, type: error.type, param: error.param }).toEqual({
        image_url,
        status: 400,
        type: "invalid_request_error",
        param: "input[1].content[1].image_url",
      });
      expect(error.message).toMatch(/^input\[1\]\.content\[1\]\.image_url: /);
    }
  });

  // docs/api-reference.md Limits: 20 MB (20971520 bytes decoded) for an image in the request.
  it("an inline image over 20 MB is a 400 naming it; 20 MB exactly parses", () => {
    const withImage = (bytes: number) => seeing(`data:image/png;base64,${base64Of(bytes)}`);
    expect(() => parseResponsesRequest(withImage(20_971_520))).not.toThrow();
    const error = rejection(withImage(20_971_521));
    expect([error.status, error.param, error.message]).toEqual([
      400,
      "input[1].content[1].image_url",
      "input[1].content[1].image_url: the image is 20971521 bytes, more than an image in a responses request may be (20971520, 20 MB)",
    ]);
  });

  it("each tool type parses; remote_mcp timeout defaults to 30", () => {
    const request = parseResponsesRequest({
      model: "txtA-5.2-pro",
      input: "hi",
      tools: [
        { type: "web_search" },
        { type: "web_search", search_context_size: "high" },
        { type: "file_search" },
        { type: "file_search", vector_store_ids: ["vs_1"], max_num_results: 5 },
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Weather by city",
            parameters: {
              type: "object",
              properties: { city: { type: "string" } },
              required: ["city"],
            },
          },
        },
        { type: "function", name: "flat_one", description: "OpenAI's flat shape", strict: true },
        { type: "remote_mcp", remote_mcp: { url: "https://mcp.example.com/sse" } },
        {
          type: "remote_mcp",
          remote_mcp: { url: "https://mcp.example.com/sse", auth_token: "t0k", timeout: 90 },
        },
      ],
    });
    expect(request.tools).toEqual([
      { type: "web_search" },
      { type: "web_search", options: { search_context_size: "high" } },
      { type: "file_search" },
      { type: "file_search", options: { vector_store_ids: ["vs_1"], max_num_results: 5 } },
      {
        type: "function",
        name: "get_weather",
        description: "Weather by city",
        parameters: {
          type: "object",
          properties: { city: { type: "string" } },
          required: ["city"],
        },
      },
      {
        type: "function",
        name: "flat_one",
        description: "OpenAI's flat shape",
        parameters: { type: "object", properties: {} },
        strict: true,
      },
      { type: "remote_mcp", url: "https://mcp.example.com/sse", timeout: 30 },
      { type: "remote_mcp", url: "https://mcp.example.com/sse", authToken: "t0k", timeout: 90 },
    ]);
    // Rendered back in the spec's shapes: nested function, explicit timeout.
    expect(renderInterlinguaResponsesRequest(request).tools).toEqual([
      { type: "web_search" },
      { type: "web_search", search_context_size: "high" },
      { type: "file_search" },
      { type: "file_search", vector_store_ids: ["vs_1"], max_num_results: 5 },
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Weather by city",
          parameters: {
            type: "object",
            properties: { city: { type: "string" } },
            required: ["city"],
          },
        },
      },
      {
        type: "function",
        function: {
          name: "flat_one",
          description: "OpenAI's flat shape",
          parameters: { type: "object", properties: {} },
          strict: true,
        },
      },
      { type: "remote_mcp", remote_mcp: { url: "https://mcp.example.com/sse", timeout: 30 } },
      {
        type: "remote_mcp",
        remote_mcp: { url: "https://mcp.example.com/sse", auth_token: "t0k", timeout: 90 },
      },
    ]);
  });

  it("a nested function tool without description is a 400 naming tools[i].function.description; a flat one is accepted", () => {
    const nested = rejection({
      model: "txtA-5.2-pro",
      input: "hi",
      tools: [
        { type: "web_search" },
        { type: "function", function: { name: "f", parameters: {} } },
      ],
    });
    expect([nested.status, nested.param, nested.message]).toEqual([
      400,
      "tools[1].function.description",
      "tools[1].function.description: field required",
    ]);
    const noName = rejection({
      model: "txtA-5.2-pro",
      input: "hi",
      tools: [{ type: "function", function: { description: "d" } }],
    });
    expect([noName.status, noName.param]).toEqual([400, "tools[0].function.name"]);
    // OpenAI's flat tool takes no description and strict: null (LangChain's bindTools sends both).
    const flat = parseResponsesRequest({
      model: "txtA-5.2-pro",
      input: "hi",
      tools: [
        { type: "function", name: "f" },
        {
          type: "function",
          name: "g",
          description: "d",
          parameters: { type: "object" },
          strict: null,
        },
      ],
    });
    expect(flat.tools).toEqual([
      { type: "function", name: "f", parameters: { type: "object", properties: {} } },
      { type: "function", name: "g", description: "d", parameters: { type: "object" } },
    ]);
    const neither = rejection({
      model: "txtA-5.2-pro",
      input: "hi",
      tools: [{ type: "function" }],
    });
    expect([neither.status, neither.param]).toEqual([400, "tools[0].function"]);
    const remote = rejection({
      model: "txtA-5.2-pro",
      input: "hi",
      tools: [{ type: "remote_mcp", remote_mcp: {} }],
    });
    expect([remote.status, remote.param]).toEqual([400, "tools[0].remote_mcp.url"]);
  });

  it("tool results come back as function_call_output items after the replayed call", () => {
    const request = parseResponsesRequest({
      model: "txtA-5.2-pro",
      instructions: "Be brief.",
      input: [
        { role: "system", content: "Use tools." },
        { role: "user", content: "Weather in Paris?" },
        {
          type: "reasoning",
          id: "rs_1",
          summary: [{ type: "summary_text", text: "Need the tool." }],
          encrypted_content: "gAAAA==",
        },
        {
          type: "function_call",
          id: "fc_1",
          call_id: "call_1",
          name: "get_weather",
          arguments: '{"city":"Paris"}',
          status: "completed",
        },
        { type: "function_call", call_id: "call_2", name: "get_time", arguments: "" },
        { type: "function_call_output", call_id: "call_1", output: '{"temp":21}' },
        { type: "function_call_output", call_id: "call_2", output: "" },
        {
          type: "message",
          role: "assistant",
          id: "msg_1",
          content: [{ type: "output_text", text: "21 degrees.", annotations: [] }],
        },
      ],
    });
    expect(request.system).toEqual([
      { type: "text", text: "Be brief." },
      { type: "text", text: "Use tools." },
    ]);
    expect(request.messages).toEqual([
      { role: "user", parts: [{ type: "text", text: "Weather in Paris?" }] },
      {
        role: "assistant",
        parts: [
          { type: "thinking", text: "Need the tool.", signature: "gAAAA==" },
          { type: "tool-call", id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' },
          { type: "tool-call", id: "call_2", name: "get_time", arguments: "{}" },
        ],
      },
      {
        role: "tool",
        parts: [
          {
            type: "tool-result",
            toolCallId: "call_1",
            name: "get_weather",
            content: [{ type: "text", text: '{"temp":21}' }],
          },
          { type: "tool-result", toolCallId: "call_2", name: "get_time", content: [] },
        ],
      },
      { role: "assistant", parts: [{ type: "text", text: "21 degrees." }] },
    ]);
  });

  it("maps the top-level fields canonical has and keeps the rest in extras.responses", () => {
    const request = parseResponsesRequest({
      model: "txtA-5.2-codex",
      input: "hi",
      temperature: 0.2,
      top_p: 0.9,
      max_output_tokens: 512,
      stream: true,
      tool_choice: { type: "function", name: "f" },
      parallel_tool_calls: false,
      reasoning: { effort: "high", summary: "detailed" },
      text: {
        format: { type: "json_schema", name: "out", schema: { type: "object" }, strict: true },
        verbosity: "low",
      },
      user: "u-1",
      metadata: { team: "a" },
      previous_response_id: "resp_0",
      store: false,
      include: ["reasoning.encrypted_content"],
    });
    expect(request).toEqual({
      model: "txtA-5.2-codex",
      system: [],
      messages: [{ role: "user", parts: [{ type: "text", text: "hi" }] }],
      sampling: { temperature: 0.2, topP: 0.9, maxTokens: 512 },
      tools: [],
      toolChoice: { type: "tool", name: "f" },
      parallelToolCalls: false,
      thinking: { type: "enabled", effort: "high", includeThoughts: true },
      responseFormat: {
        type: "json-schema",
        name: "out",
        schema: { type: "object" },
        strict: true,
      },
      stream: true,
      user: "u-1",
      metadata: { team: "a" },
      extras: {
        responses: {
          previous_response_id: "resp_0",
          store: false,
          include: ["reasoning.encrypted_content"],
          reasoning: { summary: "detailed" },
          text: { verbosity: "low" },
        },
      },
    } satisfies Request);
  });

  it("max_tokens (the spec's name) wins over max_output_tokens", () => {
    const request = parseResponsesRequest({
      model: "m",
      input: "x",
      max_tokens: 10,
      max_output_tokens: 20,
    });
    expect(request.sampling).toEqual({ maxTokens: 10 });
  });

  it("out-of-range sampling and unknown item types are 400s naming the field", () => {
    const cases: [unknown, string][] = [
      [{ model: "m", input: "x", temperature: 2.5 }, "temperature"],
      [{ model: "m", input: "x", top_p: -0.1 }, "top_p"],
      [{ model: "m", input: "x", max_tokens: 0 }, "max_tokens"],
      [{ model: "m", input: [{ type: "item_reference", id: "x" }] }, "input[0].type"],
      [{ model: "m", input: [{ role: "robot", content: "x" }] }, "input[0].role"],
      [
        {
          model: "m",
          input: [
            { role: "system", content: [{ type: "input_image", image_url: "https://a.b/c.png" }] },
          ],
        },
        "input[0].content[0].type",
      ],
      [
        { model: "m", input: [{ role: "user", content: [{ type: "input_audio" }] }] },
        "input[0].content[0].type",
      ],
      [{ model: "m", input: [{ type: "function_call_output", output: "x" }] }, "input[0].call_id"],
      [{ model: "m", input: 42 }, "input"],
      [{ input: "x" }, "model"],
      [{ model: "m", input: "x", tools: [{ type: "" }] }, "tools[0].type"],
      [{ model: "m", input: "x", tool_choice: "sometimes" }, "tool_choice"],
      [{ model: "m", input: "x", reasoning: { effort: 3 } }, "reasoning.effort"],
    ];
    for (const [wire, param] of cases) {
      const error = rejection(wire);
      expect({ param: error.param, status: error.status }).toEqual({ param, status: 400 });
    }
  });

  it("never throws anything but a 400 on weird bodies", () => {
    for (const wire of [
      null,
      undefined,
      "text",
      42,
      [],
      [{ model: "m" }],
      { model: "m" },
      { model: 1, input: "x" },
    ]) {
      const error = rejection(wire);
      expect(error.status).toBe(400);
    }
  });

  it("input_file: inline data, a URL or an id, as file parts, and back", () => {
    const pdf = "JVBERi0xLjQK";
    const req = parseResponsesRequest({
      model: "m",
      input: [
        {
          role: "user",
          content: [
            {
              type: "input_file",
              filename: "a.pdf",
              file_data: `data:application/pdf;base64,${pdf}`,
            },
            { type: "input_file", filename: "notes.txt", file_data: "aGVsbG8=" },
            { type: "input_file", file_url: "https://example.com/r.pdf" },
            { type: "input_file", file_id: "file-123" },
          ],
        },
      ],
    });
    const parts = req.messages[0]?.parts;
    expect(parts).toEqual([
      {
        type: "file",
        filename: "a.pdf",
        source: { type: "base64", mediaType: "application/pdf", data: pdf },
      },
      {
        type: "file",
        filename: "notes.txt",
        source: { type: "base64", mediaType: "text/plain", data: "aGVsbG8=" },
      },
      { type: "file", source: { type: "url", url: "https://example.com/r.pdf" } },
      { type: "file", source: { type: "file-id", fileId: "file-123" } },
    ]);
    const rendered = renderInterlinguaResponsesRequest(req) as { input: { content: unknown[] }[] };
    expect(rendered.input[0]?.content).toEqual([
      { type: "input_file", file_data: `data:application/pdf;base64,${pdf}`, filename: "a.pdf" },
      { type: "input_file", file_data: "data:text/plain;base64,aGVsbG8=", filename: "notes.txt" },
      { type: "input_file", file_url: "https://example.com/r.pdf" },
      { type: "input_file", file_id: "file-123" },
    ]);
    // OpenAI refuses file_data without a filename ("Missing required parameter"): a file that
    // came without one (a Gemini inlineData part, an untitled document) gets a placeholder.
    const untitled = renderInterlinguaResponsesRequest({
      ...req,
      messages: [
        {
          role: "user",
          parts: [
            { type: "file", source: { type: "base64", mediaType: "text/plain", data: "aGk=" } },
          ],
        },
      ],
    }) as { input: { content: unknown[] }[] };
    expect(untitled.input[0]?.content).toEqual([
      { type: "input_file", file_data: "data:text/plain;base64,aGk=", filename: "file.txt" },
    ]);
    // One source exactly; base64 of no known type is a 400 naming file_data.
    expect(
      rejection({ model: "m", input: [{ role: "user", content: [{ type: "input_file" }] }] })
        .status,
    ).toBe(400);
    expect(
      rejection({
        model: "m",
        input: [{ role: "user", content: [{ type: "input_file", file_data: "AAAA" }] }],
      }).param,
    ).toBe("file_data");
  });
});

describe("tool_choice allowed_tools", () => {
  const tools = [
    { type: "function", name: "f", parameters: { type: "object" } },
    { type: "function", name: "g", parameters: { type: "object" } },
  ];
  const allowed = {
    type: "allowed_tools",
    mode: "required",
    tools: [{ type: "function", name: "g" }],
  };

  it("naming function tools is the canonical choice with allowed, rendered back natively", () => {
    const request = parseResponsesRequest({ model: "m", input: "x", tools, tool_choice: allowed });
    expect(request.toolChoice).toStrictEqual({ type: "required", allowed: ["g"] });
    expect(request.extras?.responses?.["tool_choice"]).toBeUndefined();
    expect(renderInterlinguaResponsesRequest(request).tool_choice).toStrictEqual(allowed);
  });

  it("naming a custom tool is the canonical choice with allowed, carried as sent", () => {
    const wire = { ...allowed, tools: [...allowed.tools, { type: "custom", name: "patch" }] };
    const request = parseResponsesRequest({ model: "m", input: "x", tools, tool_choice: wire });
    expect(request.toolChoice).toStrictEqual({ type: "required", allowed: ["g", "patch"] });
    expect(request.extras?.responses?.["tool_choice"]).toStrictEqual(wire);
  });

  it("naming a hosted tool reads as its mode and is carried as sent", () => {
    const wire = { ...allowed, tools: [...allowed.tools, { type: "image_generation" }] };
    const request = parseResponsesRequest({ model: "m", input: "x", tools, tool_choice: wire });
    expect(request.toolChoice).toStrictEqual({ type: "required" });
    expect(request.extras?.responses?.["tool_choice"]).toStrictEqual(wire);
  });
});
