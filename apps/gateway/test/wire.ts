// Test-side readers of the four client formats: how a real client finds text, tool calls and
// thinking in a reply, written independently of the codecs under test.

// biome-ignore lint/suspicious/noExplicitAny: test readers walk wire JSON the way a JS client does
export type Json = any;

export type ClientFormat = "chat" | "responses" | "messages" | "native";

/** Formats whose replies come in the gateway's `{ code, data }` envelope unless asked bare. */
export const WRAPPED: Record<ClientFormat, boolean> = {
  chat: true,
  responses: true,
  messages: false,
  native: true,
};

export interface Frame {
  event?: string;
  data: string;
}

/** A minimal SSE reader (blank-line framed, `event:` and `data:` fields, comments skipped). */
export function parseSse(text: string): Frame[] {
  const frames: Frame[] = [];
  for (const block of text.split(/\r\n\r\n|\n\n|\r\r/)) {
    const frame: Frame = { data: "" };
    const data: string[] = [];
    for (const line of block.split(/\r\n|\n|\r/)) {
      if (line === "" || line.startsWith(":")) continue;
      const at = line.indexOf(":");
      const field = at < 0 ? line : line.slice(0, at);
      const value = at < 0 ? "" : line.slice(at + 1).replace(/^ /, "");
      if (field === "event") frame.event = value;
      if (field === "data") data.push(value);
    }
    if (data.length > 0) frames.push({ ...frame, data: data.join("\n") });
  }
  return frames;
}

const jsonFrames = (frames: Frame[]): Json[] =>
  frames.filter((f) => f.data !== "[DONE]").map((f) => JSON.parse(f.data));

export const TOOL = {
  name: "get_weather",
  description: "Weather of a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

export interface Ask {
  model: string;
  text: string;
  stream: boolean;
  tools?: boolean;
  thinking?: boolean;
}

export const NATIVE_PATH = (model: string, stream: boolean, sse = true) =>
  `/v1beta/models/${model}:${stream ? `streamGenerateContent${sse ? "?alt=sse" : ""}` : "generateContent"}`;

/** Path and body of one request in each client format. */
export const REQUEST: Record<
  ClientFormat,
  (ask: Ask) => { path: string; body: Record<string, unknown> }
> = {
  chat: (a) => ({
    path: "/v1/chat/completions",
    body: {
      model: a.model,
      messages: [{ role: "user", content: a.text }],
      ...(a.stream ? { stream: true } : {}),
      ...(a.tools ? { tools: [{ type: "function", function: TOOL }] } : {}),
      ...(a.thinking ? { reasoning_effort: "high" } : {}),
    },
  }),
  responses: (a) => ({
    path: "/v1/responses",
    body: {
      model: a.model,
      input: [{ role: "user", content: [{ type: "input_text", text: a.text }] }],
      ...(a.stream ? { stream: true } : {}),
      ...(a.tools ? { tools: [{ type: "function", function: TOOL }] } : {}),
      ...(a.thinking ? { reasoning: { effort: "high" } } : {}),
    },
  }),
  messages: (a) => ({
    path: "/v1/messages",
    body: {
      model: a.model,
      max_tokens: 2048,
      messages: [{ role: "user", content: a.text }],
      ...(a.stream ? { stream: true } : {}),
      ...(a.tools
        ? {
            tools: [
              { name: TOOL.name, description: TOOL.description, input_schema: TOOL.parameters },
            ],
          }
        : {}),
      ...(a.thinking ? { thinking: { type: "enabled", budget_tokens: 1024 } } : {}),
    },
  }),
  native: (a) => ({
    path: NATIVE_PATH(a.model, a.stream),
    body: {
      contents: [{ role: "user", parts: [{ text: a.text }] }],
      ...(a.tools ? { tools: [{ functionDeclarations: [TOOL] }] } : {}),
      ...(a.thinking
        ? { generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } } }
        : {}),
    },
  }),
};

export interface Reading {
  text: string;
  toolNames: string[];
  thinking: string;
}

/** What a client reads from a non-stream body (the `data` of the envelope where there is one). */
export const READ_BODY: Record<ClientFormat, (body: Json) => Reading> = {
  chat: (b) => ({
    text: b.choices[0].message.content ?? "",
    toolNames: (b.choices[0].message.tool_calls ?? []).map((c: Json) => c.function.name),
    thinking: b.choices[0].message.reasoning_content ?? "",
  }),
  responses: (b) => ({
    text: b.choices[0].message.content ?? "",
    toolNames: (b.choices[0].message.tool_calls ?? []).map((c: Json) => c.function.name),
    thinking: "",
  }),
  messages: (b) => ({
    text: b.content
      .filter((c: Json) => c.type === "text")
      .map((c: Json) => c.text)
      .join(""),
    toolNames: b.content.filter((c: Json) => c.type === "tool_use").map((c: Json) => c.name),
    thinking: b.content
      .filter((c: Json) => c.type === "thinking")
      .map((c: Json) => c.thinking)
      .join(""),
  }),
  native: (b) => {
    const parts: Json[] = b.candidates[0].content.parts ?? [];
    return {
      text: parts
        .filter((p) => typeof p.text === "string" && !p.thought)
        .map((p) => p.text)
        .join(""),
      toolNames: parts.filter((p) => p.functionCall).map((p) => p.functionCall.name),
      thinking: parts
        .filter((p) => p.thought)
        .map((p) => p.text)
        .join(""),
    };
  },
};

/** What a client reads from a stream. */
export const READ_STREAM: Record<ClientFormat, (frames: Frame[]) => Reading> = {
  chat: (frames) => {
    const chunks = jsonFrames(frames);
    const deltas = chunks.flatMap((c) => (c.choices ?? []).map((ch: Json) => ch.delta ?? {}));
    return {
      text: deltas.map((d) => d.content ?? "").join(""),
      toolNames: deltas.flatMap((d) =>
        (d.tool_calls ?? []).map((t: Json) => t.function?.name).filter(Boolean),
      ),
      thinking: deltas.map((d) => d.reasoning_content ?? "").join(""),
    };
  },
  responses: (frames) => {
    const events = jsonFrames(frames);
    return {
      text: events
        .filter((e) => e.type === "response.output_text.delta")
        .map((e) => e.delta)
        .join(""),
      toolNames: events
        .filter((e) => e.type === "response.output_item.added" && e.item.type === "function_call")
        .map((e) => e.item.name),
      thinking: events
        .filter(
          (e) =>
            e.type === "response.reasoning_summary_text.delta" ||
            e.type === "response.reasoning_text.delta",
        )
        .map((e) => e.delta)
        .join(""),
    };
  },
  messages: (frames) => {
    const events = jsonFrames(frames);
    const deltas = events.filter((e) => e.type === "content_block_delta").map((e) => e.delta);
    return {
      text: deltas
        .filter((d) => d.type === "text_delta")
        .map((d) => d.text)
        .join(""),
      toolNames: events
        .filter((e) => e.type === "content_block_start" && e.content_block.type === "tool_use")
        .map((e) => e.content_block.name),
      thinking: deltas
        .filter((d) => d.type === "thinking_delta")
        .map((d) => d.thinking)
        .join(""),
    };
  },
  native: (frames) => readNativeChunks(jsonFrames(frames)),
};

export function readNativeChunks(chunks: Json[]): Reading {
  const parts = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []);
  return {
    text: parts
      .filter((p: Json) => typeof p.text === "string" && !p.thought)
      .map((p: Json) => p.text)
      .join(""),
    toolNames: parts.filter((p: Json) => p.functionCall).map((p: Json) => p.functionCall.name),
    thinking: parts
      .filter((p: Json) => p.thought)
      .map((p: Json) => p.text)
      .join(""),
  };
}

/** The usage frame each format's client reads, as total output tokens (for "usage arrived"). */
export const STREAM_HAS_USAGE: Record<ClientFormat, (frames: Frame[]) => boolean> = {
  chat: (frames) => jsonFrames(frames).some((c) => c.usage && c.usage.completion_tokens > 0),
  responses: (frames) =>
    jsonFrames(frames).some((e) => e.type === "response.completed" && e.response.usage),
  messages: (frames) =>
    jsonFrames(frames).some((e) => e.type === "message_delta" && e.usage?.output_tokens > 0),
  native: (frames) => jsonFrames(frames).some((c) => c.usageMetadata?.candidatesTokenCount > 0),
};
