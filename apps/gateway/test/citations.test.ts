import { describe, expect, it } from "vitest";
import { frameDeviations, SCHEMAS } from "./official-schema-validators.ts";
import {
  SCRIPTED_MODEL,
  sse,
  type UpstreamProtocol,
  useScriptedStack,
} from "./scripted-upstream.ts";
import { auth, postJson } from "./stack.ts";
import {
  type ClientFormat,
  type Frame,
  type Json,
  parseSse,
  READ_BODY,
  READ_STREAM,
  REQUEST,
  WRAPPED,
} from "./wire.ts";

// Issue 26 item 5 through the gateway: a cited answer, streamed or whole, from every upstream
// protocol reaches every client format with its source in that format's own place (chat
// annotations, Responses annotation events, Anthropic citations, Gemini groundingMetadata).

const CLIENTS: ClientFormat[] = ["chat", "responses", "messages", "native"];
const UPSTREAMS: UpstreamProtocol[] = ["openai", "openai-responses", "anthropic", "gemini"];
const ANSWER = "Paris is the capital of France.";
const URL = "https://example.org/france";
const TITLE = "France";

const scripted = useScriptedStack();

const chatBase = { id: "c1", object: "chat.completion.chunk", created: 1, model: "m" };
const annotation = { type: "url_citation", url: URL, title: TITLE, start_index: 0, end_index: 5 };
const anthropicCitation = {
  type: "web_search_result_location",
  url: URL,
  title: TITLE,
  cited_text: "Paris is the capital and largest city of France.",
  encrypted_index: "Eo8BCioIAhgB",
};
const grounding = {
  groundingChunks: [{ web: { uri: URL, title: TITLE } }],
  groundingSupports: [
    { segment: { startIndex: 0, endIndex: 5, text: "Paris" }, groundingChunkIndices: [0] },
  ],
};

/** Each protocol's own cited stream, as its provider writes one. */
const CITED_STREAM: Record<UpstreamProtocol, string> = {
  openai: `${sse([
    {
      ...chatBase,
      choices: [{ index: 0, delta: { role: "assistant", content: ANSWER }, finish_reason: null }],
    },
    {
      ...chatBase,
      choices: [
        {
          index: 0,
          delta: { annotations: [{ type: "url_citation", url_citation: annotation }] },
          finish_reason: null,
        },
      ],
    },
    { ...chatBase, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
    {
      ...chatBase,
      choices: [],
      usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
    },
  ])}data: [DONE]\n\n`,
  "openai-responses": sse(
    [
      {
        type: "response.created",
        sequence_number: 0,
        response: {
          id: "resp_1",
          object: "response",
          created_at: 1,
          model: "m",
          status: "in_progress",
          output: [],
        },
      },
      {
        type: "response.output_item.added",
        sequence_number: 1,
        output_index: 0,
        item: { type: "message", id: "m1", role: "assistant", status: "in_progress", content: [] },
      },
      {
        type: "response.content_part.added",
        sequence_number: 2,
        item_id: "m1",
        output_index: 0,
        content_index: 0,
        part: { type: "output_text", text: "", annotations: [] },
      },
      {
        type: "response.output_text.delta",
        sequence_number: 3,
        item_id: "m1",
        output_index: 0,
        content_index: 0,
        delta: ANSWER,
      },
      {
        type: "response.output_text.annotation.added",
        sequence_number: 4,
        item_id: "m1",
        output_index: 0,
        content_index: 0,
        annotation_index: 0,
        annotation,
      },
      {
        type: "response.output_text.done",
        sequence_number: 5,
        item_id: "m1",
        output_index: 0,
        content_index: 0,
        text: ANSWER,
      },
      {
        type: "response.output_item.done",
        sequence_number: 6,
        output_index: 0,
        item: {
          type: "message",
          id: "m1",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: ANSWER, annotations: [annotation] }],
        },
      },
      {
        type: "response.completed",
        sequence_number: 7,
        response: {
          id: "resp_1",
          object: "response",
          created_at: 1,
          model: "m",
          status: "completed",
          output: [],
          usage: { input_tokens: 5, output_tokens: 7, total_tokens: 12 },
        },
      },
    ],
    true,
  ),
  anthropic: sse(
    [
      {
        type: "message_start",
        message: {
          id: "msg_1",
          type: "message",
          role: "assistant",
          model: "m",
          content: [],
          stop_reason: null,
          usage: { input_tokens: 5, output_tokens: 1 },
        },
      },
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "text", text: "", citations: [] },
      },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "citations_delta", citation: anthropicCitation },
      },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: ANSWER } },
      { type: "content_block_stop", index: 0 },
      {
        type: "message_delta",
        delta: { stop_reason: "end_turn", stop_sequence: null },
        usage: { output_tokens: 7 },
      },
      { type: "message_stop" },
    ],
    true,
  ),
  gemini: sse([
    {
      candidates: [{ content: { role: "model", parts: [{ text: ANSWER }] }, index: 0 }],
      modelVersion: "m",
      responseId: "r1",
    },
    {
      candidates: [{ finishReason: "STOP", index: 0, groundingMetadata: grounding }],
      usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 7, totalTokenCount: 12 },
      modelVersion: "m",
      responseId: "r1",
    },
  ]),
};

/** Each protocol's own cited whole reply. */
const CITED_BODY: Record<UpstreamProtocol, Json> = {
  openai: {
    ...chatBase,
    object: "chat.completion",
    choices: [
      {
        index: 0,
        finish_reason: "stop",
        message: {
          role: "assistant",
          content: ANSWER,
          annotations: [{ type: "url_citation", url_citation: annotation }],
        },
      },
    ],
    usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
  },
  "openai-responses": {
    id: "resp_1",
    object: "response",
    created_at: 1,
    model: "m",
    status: "completed",
    output: [
      {
        type: "message",
        id: "m1",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: ANSWER, annotations: [annotation] }],
      },
    ],
    usage: { input_tokens: 5, output_tokens: 7, total_tokens: 12 },
  },
  anthropic: {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "m",
    content: [{ type: "text", text: ANSWER, citations: [anthropicCitation] }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 5, output_tokens: 7 },
  },
  gemini: {
    candidates: [
      {
        content: { role: "model", parts: [{ text: ANSWER }] },
        finishReason: "STOP",
        index: 0,
        groundingMetadata: grounding,
      },
    ],
    usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 7, totalTokenCount: 12 },
    modelVersion: "m",
    responseId: "r1",
  },
};

const chunksOf = (frames: Frame[]): Json[] =>
  frames.filter((f) => f.data !== "[DONE]").map((f) => JSON.parse(f.data));

/** The source URLs a client of each format finds in a stream, where its SDK looks for them. */
const STREAM_SOURCES: Record<ClientFormat, (frames: Frame[]) => string[]> = {
  chat: (frames) =>
    chunksOf(frames).flatMap((c) =>
      (c.choices ?? []).flatMap((ch: Json) =>
        (ch.delta?.annotations ?? []).map((a: Json) => a.url_citation.url),
      ),
    ),
  responses: (frames) =>
    chunksOf(frames)
      .filter((e) => e.type === "response.output_text.annotation.added")
      .map((e) => e.annotation.url),
  messages: (frames) =>
    chunksOf(frames)
      .filter((e) => e.type === "content_block_delta" && e.delta.type === "citations_delta")
      .map((e) => e.delta.citation.url),
  native: (frames) =>
    chunksOf(frames).flatMap((c) =>
      (c.candidates ?? []).flatMap((x: Json) =>
        (x.groundingMetadata?.groundingChunks ?? []).map((g: Json) => g.web.uri),
      ),
    ),
};

/** The same, in a whole reply. */
const BODY_SOURCES: Record<ClientFormat, (body: Json) => string[]> = {
  chat: (b) => (b.choices[0].message.annotations ?? []).map((a: Json) => a.url_citation.url),
  responses: (b) =>
    b.output.flatMap((item: Json) =>
      (item.content ?? []).flatMap((part: Json) =>
        (part.annotations ?? []).map((a: Json) => a.url),
      ),
    ),
  messages: (b) =>
    b.content.flatMap((block: Json) => (block.citations ?? []).map((c: Json) => c.url)),
  native: (b) =>
    (b.candidates[0].groundingMetadata?.groundingChunks ?? []).map((g: Json) => g.web.uri),
};

/** Deviations from the providers' published schemas and SDK types (official-schemas.test.ts). */
const frameEach = (text: string, check: (v: unknown) => string[]) =>
  parseSse(text)
    .filter((f) => f.event !== "ping")
    .flatMap((f, i) => check(JSON.parse(f.data)).map((d) => `frame ${i}: ${d}`));
const STREAM_DEVIATIONS: Record<ClientFormat, (text: string) => string[]> = {
  chat: (text) => frameDeviations(text, SCHEMAS.chatChunk),
  responses: (text) => frameDeviations(text, SCHEMAS.responseEvent),
  messages: (text) => frameEach(text, SCHEMAS.anthropicEvent),
  native: (text) => frameEach(text, SCHEMAS.gemini),
};
const BODY_DEVIATIONS: Record<ClientFormat, (body: Json) => string[]> = {
  chat: SCHEMAS.chat,
  responses: SCHEMAS.response,
  messages: SCHEMAS.anthropicMessage,
  native: SCHEMAS.gemini,
};

/** Same-format pairs relay the scripted body itself: only translated answers are ours to check. */
const SAME: Record<ClientFormat, UpstreamProtocol> = {
  chat: "openai",
  responses: "openai-responses",
  messages: "anthropic",
  native: "gemini",
};

const ask = (client: ClientFormat, protocol: UpstreamProtocol, stream: boolean) => {
  const { path, body } = REQUEST[client]({ model: SCRIPTED_MODEL[protocol], text: "hi", stream });
  // A Responses client reads OpenAI's Response object: it asks for bare bodies.
  const headers = client === "responses" ? { ...auth(), "x-interlingua-envelope": "bare" } : auth();
  return postJson(scripted.stack.gateway.url + path, body, headers);
};

describe("item 5: citations in streams reach every client", () => {
  for (const client of CLIENTS) {
    for (const protocol of UPSTREAMS) {
      it(`${client} client, ${protocol} upstream: the source and the whole answer arrive`, async () => {
        scripted.upstream.script(() => ({
          body: CITED_STREAM[protocol],
          contentType: "text/event-stream",
        }));
        const res = await ask(client, protocol, true);
        expect(res.status).toBe(200);
        const frames = parseSse(res.text);
        expect(STREAM_SOURCES[client](frames)).toContain(URL);
        expect(READ_STREAM[client](frames).text).toBe(ANSWER);
        if (SAME[client] !== protocol) expect(STREAM_DEVIATIONS[client](res.text)).toEqual([]);
      });
    }
  }
});

describe("item 5: citations in whole replies reach every client", () => {
  for (const client of CLIENTS) {
    for (const protocol of UPSTREAMS) {
      it(`${client} client, ${protocol} upstream`, async () => {
        scripted.upstream.script(() => ({ body: JSON.stringify(CITED_BODY[protocol]) }));
        const res = await ask(client, protocol, false);
        expect(res.status).toBe(200);
        const parsed = JSON.parse(res.text) as Json;
        const body = WRAPPED[client] && client !== "responses" ? parsed.data : parsed;
        expect(BODY_SOURCES[client](body)).toContain(URL);
        // A bare Responses body is OpenAI's Response object, read by its output_text.
        const text = client === "responses" ? body.output_text : READ_BODY[client](body).text;
        expect(text).toBe(ANSWER);
        if (SAME[client] !== protocol) expect(BODY_DEVIATIONS[client](body)).toEqual([]);
      });
    }
  }
});

describe("item 5: what has no room is reported", () => {
  it("an Anthropic reply's web-search blocks are reported to a chat client, its citation kept", async () => {
    scripted.upstream.script(() => ({
      body: JSON.stringify({
        ...CITED_BODY.anthropic,
        content: [
          { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } },
          {
            type: "web_search_tool_result",
            tool_use_id: "srvtoolu_1",
            content: [
              { type: "web_search_result", url: URL, title: TITLE, encrypted_content: "e" },
            ],
          },
          ...CITED_BODY.anthropic.content,
        ],
      }),
    }));
    const res = await ask("chat", "anthropic", false);
    expect(res.status).toBe(200);
    expect(BODY_SOURCES.chat((JSON.parse(res.text) as Json).data)).toEqual([URL]);
    expect(res.headers.get("x-interlingua-warnings")).toMatch(
      /content\[1\]\.web_search_tool_result=dropped/,
    );
  });
});
