import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SCRIPTED_KEY,
  SCRIPTED_MODEL,
  type ScriptedRequest,
  SPEECH_MODEL,
  scriptedChannels,
  sse,
  startScriptedUpstream,
  type UpstreamProtocol,
} from "./scripted-upstream.ts";
import { auth, postJson, type Stack, startStack } from "./stack.ts";
import { loggedRowOf } from "./usage-rows.ts";
import { type ClientFormat, type Frame, type Json, parseSse, REQUEST } from "./wire.ts";

// Issue 26 (translation fidelity III), through the gateway: every client format against every
// upstream protocol, the upstream scripted to behave as the real providers can.

const CLIENTS: ClientFormat[] = ["chat", "responses", "messages", "native"];
const UPSTREAMS: UpstreamProtocol[] = ["openai", "openai-responses", "anthropic", "gemini"];

let upstream: Awaited<ReturnType<typeof startScriptedUpstream>>;
let stack: Stack;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  stack = await startStack(
    { channels: scriptedChannels(upstream.url) },
    // Scripted faults must not open a channel's circuit for the next test.
    { breaker: { failureThreshold: 1000, cooldownMs: 60_000 } },
  );
});
afterAll(async () => {
  await stack?.close();
  await upstream?.close();
});

const call = (client: ClientFormat, protocol: UpstreamProtocol, stream: boolean, text = "hi") => {
  const { path, body } = REQUEST[client]({ model: SCRIPTED_MODEL[protocol], text, stream });
  return postJson(stack.gateway.url + path, body, auth());
};

// --- Item 1: a cut stream is not a finish ---------------------------------------------------

/** Each protocol's stream, cut after its first text: no terminal event. */
const CUT: Record<UpstreamProtocol, (request: ScriptedRequest) => string> = {
  openai: () =>
    sse([
      {
        id: "c1",
        object: "chat.completion.chunk",
        created: 1,
        model: "m",
        choices: [
          { index: 0, delta: { role: "assistant", content: "Hello" }, finish_reason: null },
        ],
      },
    ]),
  "openai-responses": () =>
    sse(
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
          item: {
            type: "message",
            id: "m1",
            role: "assistant",
            status: "in_progress",
            content: [],
          },
        },
        {
          type: "response.output_text.delta",
          sequence_number: 2,
          item_id: "m1",
          output_index: 0,
          content_index: 0,
          delta: "Hello",
        },
      ],
      true,
    ),
  anthropic: () =>
    sse(
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
            usage: { input_tokens: 3, output_tokens: 1 },
          },
        },
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hello" } },
      ],
      true,
    ),
  gemini: () =>
    sse([
      {
        candidates: [{ content: { role: "model", parts: [{ text: "Hello" }] }, index: 0 }],
        modelVersion: "m",
        responseId: "r1",
      },
    ]),
};

/** The client's own failure signal, and no sign of a normal finish. */
const FAILED_STREAM: Record<ClientFormat, (frames: Frame[]) => void> = {
  chat(frames) {
    const chunks = frames.filter((f) => f.data !== "[DONE]").map((f) => JSON.parse(f.data));
    expect(chunks.some((c: Json) => c.error !== undefined)).toBe(true);
    expect(chunks.some((c: Json) => (c.choices ?? []).some((ch: Json) => ch.finish_reason))).toBe(
      false,
    );
  },
  responses(frames) {
    const types = frames.map((f) => JSON.parse(f.data).type);
    expect(types.some((t) => t === "response.failed" || t === "response.incomplete")).toBe(true);
    expect(types).not.toContain("response.completed");
  },
  messages(frames) {
    expect(frames.some((f) => f.event === "error")).toBe(true);
    const types = frames.map((f) => JSON.parse(f.data).type);
    expect(types).not.toContain("message_stop");
  },
  native(frames) {
    const chunks = frames.map((f) => JSON.parse(f.data));
    expect(chunks.some((c: Json) => c.error !== undefined)).toBe(true);
    expect(chunks.some((c: Json) => (c.candidates ?? []).some((x: Json) => x.finishReason))).toBe(
      false,
    );
  },
};

describe("item 1: a cut stream is not a finish", () => {
  for (const protocol of UPSTREAMS) {
    for (const client of CLIENTS) {
      // "empty": a stream body with no event at all (a keep-alive comment only).
      for (const body of ["cut", "empty"] as const) {
        it(`${client} client, ${protocol} upstream, ${body} stream: the client's failure signal, logged as an upstream failure`, async () => {
          upstream.script((request) => ({
            body: body === "cut" ? CUT[protocol](request) : ": keep-alive\n\n",
          }));
          const res = await call(client, protocol, true);
          expect(res.status).toBe(200);
          FAILED_STREAM[client](parseSse(res.text));
          const row = await loggedRowOf(stack, res.headers.get("x-request-id"));
          expect(row.status).toBe(502);
          expect(row.error).toMatch(/ended before its finish/);
        });
      }
    }
  }
});

// --- Item 2: nothing after a stream error -----------------------------------------------------

const CUT_ARGS = '{"city":"Par';
const chatBase = { id: "c1", created: 1, model: "m" };
const chatToolCall = {
  id: "call_1",
  type: "function",
  function: { name: "get_weather", arguments: CUT_ARGS },
};
const responsesCall = {
  type: "function_call",
  id: "fc_1",
  call_id: "call_1",
  name: "get_weather",
  arguments: CUT_ARGS,
  status: "incomplete",
};
const responsesReply = (status: string, output: Json[]) => ({
  id: "resp_1",
  object: "response",
  created_at: 1,
  model: "m",
  status,
  incomplete_details: status === "incomplete" ? { reason: "max_output_tokens" } : null,
  output,
  usage: { input_tokens: 5, output_tokens: 7, total_tokens: 12 },
});

/** A max-tokens stop inside a tool call's arguments, stream and not, as each upstream sends it. */
const MAX_TOKENS_IN_CALL: Partial<Record<UpstreamProtocol, (request: ScriptedRequest) => string>> =
  {
    openai: (request) =>
      request.stream
        ? sse([
            {
              ...chatBase,
              object: "chat.completion.chunk",
              choices: [
                {
                  index: 0,
                  delta: { role: "assistant", tool_calls: [{ index: 0, ...chatToolCall }] },
                  finish_reason: null,
                },
              ],
            },
            {
              ...chatBase,
              object: "chat.completion.chunk",
              choices: [{ index: 0, delta: {}, finish_reason: "length" }],
            },
            {
              ...chatBase,
              object: "chat.completion.chunk",
              choices: [],
              usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
            },
            "[DONE]",
          ])
        : JSON.stringify({
            ...chatBase,
            object: "chat.completion",
            choices: [
              {
                index: 0,
                message: { role: "assistant", content: null, tool_calls: [chatToolCall] },
                finish_reason: "length",
              },
            ],
            usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
          }),
    "openai-responses": (request) =>
      request.stream
        ? sse(
            [
              {
                type: "response.created",
                sequence_number: 0,
                response: responsesReply("in_progress", []),
              },
              {
                type: "response.output_item.added",
                sequence_number: 1,
                output_index: 0,
                item: { ...responsesCall, arguments: "", status: "in_progress" },
              },
              {
                type: "response.function_call_arguments.delta",
                sequence_number: 2,
                item_id: "fc_1",
                output_index: 0,
                delta: CUT_ARGS,
              },
              {
                type: "response.incomplete",
                sequence_number: 3,
                response: responsesReply("incomplete", [responsesCall]),
              },
            ],
            true,
          )
        : JSON.stringify(responsesReply("incomplete", [responsesCall])),
  };

/** The frames after the client's error frame: only usage may follow it. */
const AFTER_ERROR: Record<ClientFormat, (frames: Frame[]) => Json[]> = {
  chat: (frames) => {
    const chunks = frames.filter((f) => f.data !== "[DONE]").map((f) => JSON.parse(f.data));
    return chunks.slice(chunks.findIndex((c: Json) => c.error) + 1);
  },
  responses: (frames) => {
    const events = frames.map((f) => JSON.parse(f.data));
    // The Responses failure is an error event then its response.failed.
    return events
      .slice(events.findIndex((e: Json) => e.type === "error") + 1)
      .filter((e: Json) => e.type !== "response.failed");
  },
  messages: (frames) => {
    const at = frames.findIndex((f) => f.event === "error");
    return frames.slice(at + 1).map((f) => JSON.parse(f.data));
  },
  native: (frames) => {
    const chunks = frames.map((f) => JSON.parse(f.data));
    return chunks.slice(chunks.findIndex((c: Json) => c.error) + 1);
  },
};
const onlyUsage: Record<ClientFormat, (after: Json) => boolean> = {
  chat: (c) => (c.choices ?? []).length === 0,
  responses: () => false,
  messages: (e) => e.type === "message_delta" && e.delta?.stop_reason === undefined,
  native: (c) => c.candidates === undefined,
};

describe("item 2: a max-tokens stop inside a tool call fails alike, and nothing follows the error", () => {
  for (const protocol of ["openai", "openai-responses"] as const) {
    for (const client of CLIENTS) {
      if (client === "chat" && protocol === "openai") continue; // the same-format bytes
      it(`${client} client, ${protocol} upstream: stream and non-stream give the same 502`, async () => {
        upstream.script((request) => ({ body: MAX_TOKENS_IN_CALL[protocol]!(request) }));
        const { path, body } = REQUEST[client]({
          model: SCRIPTED_MODEL[protocol],
          text: "weather?",
          stream: true,
          tools: true,
        });
        const streamed = await postJson(stack.gateway.url + path, body, auth());
        const frames = parseSse(streamed.text);
        expect(streamed.text).toMatch(/did not finish with complete JSON arguments/);
        for (const after of AFTER_ERROR[client](frames))
          expect(onlyUsage[client](after)).toBe(true);
        const whole = REQUEST[client]({
          model: SCRIPTED_MODEL[protocol],
          text: "weather?",
          stream: false,
          tools: true,
        });
        const res = await postJson(stack.gateway.url + whole.path, whole.body, auth());
        expect(res.status).toBe(502);
        expect(res.text).toMatch(/did not finish with complete JSON arguments/);
      });
    }
  }
});

// --- Item 3: exact numbers in tool arguments -------------------------------------------------

// The last four hold as doubles but JSON.stringify writes them otherwise (0, 1, 100, 1e-7): their
// text is kept too, so a client reads 1.0 as a float and -0 as negative zero, as it was written.
const EXACT_ARGS =
  '{"id":12345678901234567890,"n":9007199254740993,"x":1.0000000000000001,"big":1e400,"neg":-0,"f":[1.0,1.50],"e":1E2,"tiny":0.0000001}';
const chatReply = (args: string) =>
  JSON.stringify({
    ...chatBase,
    object: "chat.completion",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "get_weather", arguments: args } },
          ],
        },
        finish_reason: "tool_calls",
      },
    ],
    usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
  });
/** Each upstream's whole reply calling get_weather with EXACT_ARGS, written as its own JSON. */
const EXACT_REPLY: Record<UpstreamProtocol, string> = {
  openai: chatReply(EXACT_ARGS),
  "openai-responses": `{"id":"resp_1","object":"response","created_at":1,"model":"m","status":"completed","output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":${JSON.stringify(EXACT_ARGS)},"status":"completed"}],"usage":{"input_tokens":5,"output_tokens":7,"total_tokens":12}}`,
  anthropic: `{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"call_1","name":"get_weather","input":${EXACT_ARGS}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":7}}`,
  gemini: `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":${EXACT_ARGS}}}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":7,"totalTokenCount":12},"modelVersion":"m","responseId":"r1"}`,
};
/** The arguments a client reads from a non-stream reply, as the JSON text it received. */
const ARGS_TEXT: Record<ClientFormat, (text: string) => string> = {
  chat: (text) => JSON.parse(text).data.choices[0].message.tool_calls[0].function.arguments,
  responses: (text) => JSON.parse(text).data.choices[0].message.tool_calls[0].function.arguments,
  messages: (text) => /"input":(\{[^}]*\})/.exec(text)![1]!,
  native: (text) => /"args":(\{[^}]*\})/.exec(text)![1]!,
};
/** A tool loop's history in each client format: the assistant's call with EXACT_ARGS, its result. */
const HISTORY: Record<ClientFormat, (model: string) => { path: string; text: string }> = {
  chat: (model) => ({
    path: "/v1/chat/completions",
    text: `{"model":"${model}","tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object"}}}],"messages":[{"role":"user","content":"go"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":${JSON.stringify(EXACT_ARGS)}}}]},{"role":"tool","tool_call_id":"call_1","content":"ok"}]}`,
  }),
  responses: (model) => ({
    path: "/v1/responses",
    text: `{"model":"${model}","tools":[{"type":"function","function":{"name":"get_weather","description":"w","parameters":{"type":"object"}}}],"input":[{"role":"user","content":[{"type":"input_text","text":"go"}]},{"type":"function_call","call_id":"call_1","name":"get_weather","arguments":${JSON.stringify(EXACT_ARGS)}},{"type":"function_call_output","call_id":"call_1","output":"ok"}]}`,
  }),
  messages: (model) => ({
    path: "/v1/messages",
    text: `{"model":"${model}","max_tokens":100,"tools":[{"name":"get_weather","input_schema":{"type":"object"}}],"messages":[{"role":"user","content":"go"},{"role":"assistant","content":[{"type":"tool_use","id":"call_1","name":"get_weather","input":${EXACT_ARGS}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_1","content":"ok"}]}]}`,
  }),
  native: (model) => ({
    path: `/v1beta/models/${model}:generateContent`,
    text: `{"tools":[{"functionDeclarations":[{"name":"get_weather","parameters":{"type":"object"}}]}],"contents":[{"role":"user","parts":[{"text":"go"}]},{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":${EXACT_ARGS}}}]},{"role":"user","parts":[{"functionResponse":{"name":"get_weather","response":{"ok":true}}}]}]}`,
  }),
};
/** Where each upstream protocol's request carries the history's call arguments, as sent. */
const SENT_ARGS: Record<UpstreamProtocol, (text: string) => string> = {
  openai: (text) => JSON.parse(text).messages[1].tool_calls[0].function.arguments,
  "openai-responses": (text) =>
    JSON.parse(text).input.find((i: Json) => i.type === "function_call").arguments,
  anthropic: (text) => /"input":(\{[^}]*\})/.exec(text)![1]!,
  gemini: (text) => /"args":(\{[^}]*\})/.exec(text)![1]!,
};

/** Sends a conversation as a client would (200 expected): what the scripted upstream received. */
async function sendHistory(history: { path: string; text: string }) {
  const before = upstream.requests.length;
  const sent = await fetch(stack.gateway.url + history.path, {
    method: "POST",
    headers: { "content-type": "application/json", ...auth() },
    body: history.text,
  });
  expect(sent.status, await sent.text()).toBe(200);
  return upstream.requests[before]!;
}

describe("item 3: tool-call arguments keep their numbers exactly", () => {
  for (const protocol of UPSTREAMS) {
    for (const client of CLIENTS) {
      it(`${client} client, ${protocol} upstream: the reply's arguments and the history's`, async () => {
        upstream.script(() => ({ body: EXACT_REPLY[protocol] }));
        const res = await call(client, protocol, false);
        expect(res.status, res.text).toBe(200);
        expect(JSON.parse(ARGS_TEXT[client](res.text))).toEqual(JSON.parse(EXACT_ARGS));
        expect(ARGS_TEXT[client](res.text)).toBe(EXACT_ARGS);

        const history = HISTORY[client](SCRIPTED_MODEL[protocol]);
        const request = await sendHistory(history);
        expect(SENT_ARGS[protocol](request.text)).toBe(EXACT_ARGS);
      });
    }
  }
});

describe("item 3, streams: arguments keep their numbers in both directions", () => {
  it("a Gemini stream's functionCall args reach chat, Responses and messages clients exactly", async () => {
    upstream.script(() => ({
      body: sse([
        `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":${EXACT_ARGS}}}]},"finishReason":"STOP","index":0}],"modelVersion":"m","responseId":"r1"}`,
      ]),
    }));
    for (const client of ["chat", "responses", "messages"] as const) {
      const res = await call(client, "gemini", true);
      expect(res.text).toContain(JSON.stringify(EXACT_ARGS).slice(1, -1));
    }
  });
  it("a chat stream's arguments reach a native client's functionCall args exactly", async () => {
    upstream.script(() => ({
      body: sse([
        {
          ...chatBase,
          object: "chat.completion.chunk",
          choices: [
            {
              index: 0,
              delta: {
                role: "assistant",
                tool_calls: [
                  {
                    index: 0,
                    ...chatToolCall,
                    function: { name: "get_weather", arguments: EXACT_ARGS },
                  },
                ],
              },
              finish_reason: null,
            },
          ],
        },
        {
          ...chatBase,
          object: "chat.completion.chunk",
          choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }],
        },
        "[DONE]",
      ]),
    }));
    const res = await call("native", "openai", true);
    expect(res.text).toContain(`"args":${EXACT_ARGS}`);
  });
});

/** EXACT_ARGS' numbers as a tool's result (another key, to tell it from the call's arguments). */
const EXACT_RESULT = EXACT_ARGS.replace('{"id":', '{"result_id":');
/** HISTORY with EXACT_RESULT as the tool's result: text in chat, Responses, messages; an object in native. */
const withExactResult = (client: ClientFormat, model: string) => {
  const { path, text } = HISTORY[client](model);
  const quoted = JSON.stringify(EXACT_RESULT);
  return {
    path,
    text: text
      .replace(
        '"role":"tool","tool_call_id":"call_1","content":"ok"',
        `"role":"tool","tool_call_id":"call_1","content":${quoted}`,
      )
      .replace('"output":"ok"', `"output":${quoted}`)
      .replace(
        '"tool_use_id":"call_1","content":"ok"',
        `"tool_use_id":"call_1","content":${quoted}`,
      )
      .replace('"response":{"ok":true}', `"response":${EXACT_RESULT}`),
  };
};

describe("tool results keep their numbers (Gemini's functionResponse.response is an object)", () => {
  for (const protocol of UPSTREAMS) {
    for (const client of CLIENTS) {
      it(`${client} client, ${protocol} upstream`, async () => {
        upstream.script(() => ({ body: EXACT_REPLY[protocol] }));
        const history = withExactResult(client, SCRIPTED_MODEL[protocol]);
        expect(history.text).not.toBe(HISTORY[client](SCRIPTED_MODEL[protocol]).text);
        const request = (await sendHistory(history)).text;
        // As an object (Gemini) or as text in a JSON string (the others).
        const carried =
          request.includes(`"response":${EXACT_RESULT}`) ||
          request.includes(JSON.stringify(EXACT_RESULT).slice(1, -1));
        expect(carried, request).toBe(true);
      });
    }
  }
});

describe("a Gemini reason the messages format cannot name still ends the message", () => {
  for (const reason of ["OTHER", "MALFORMED_FUNCTION_CALL", "TOO_MANY_TOOL_CALLS"]) {
    it(`${reason}: stop_reason end_turn, streamed and not (never null on a finished message)`, async () => {
      const chunk = `{"candidates":[{"content":{"role":"model","parts":[{"text":"partial"}]},"finishReason":"${reason}","index":0}],"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":1,"totalTokenCount":4},"modelVersion":"m","responseId":"r1"}`;
      upstream.script((request) => ({ body: request.stream ? sse([chunk]) : chunk }));
      const whole = await call("messages", "gemini", false);
      expect(whole.status, whole.text).toBe(200);
      expect(JSON.parse(whole.text).stop_reason).toBe("end_turn");
      expect(whole.headers.get("x-interlingua-warnings")).toContain(
        "choices[0].finishReason=mapped",
      );
      const streamed = await call("messages", "gemini", true);
      const delta = parseSse(streamed.text).find((f) => f.event === "message_delta");
      expect(JSON.parse(delta!.data).delta.stop_reason).toBe("end_turn");
    });
  }
});

// --- Item 4: output is never rewritten -------------------------------------------------------

const QUOTED = "OPENAI_API_KEY=sk-proj-YOUR_KEY_HERE";

/** A reply saying `text` (and calling a tool with it), as each upstream writes it. */
const SAYING: Partial<
  Record<UpstreamProtocol, (request: ScriptedRequest, text: string) => string>
> = {
  openai: (request, text) =>
    request.stream
      ? sse([
          {
            ...chatBase,
            object: "chat.completion.chunk",
            choices: [
              { index: 0, delta: { role: "assistant", content: text }, finish_reason: null },
            ],
          },
          {
            ...chatBase,
            object: "chat.completion.chunk",
            choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
          },
          "[DONE]",
        ])
      : JSON.stringify({
          ...chatBase,
          object: "chat.completion",
          choices: [
            { index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" },
          ],
          usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
        }),
  anthropic: (request, text) =>
    request.stream
      ? sse(
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
                usage: { input_tokens: 3, output_tokens: 1 },
              },
            },
            { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
            { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
            { type: "content_block_stop", index: 0 },
            {
              type: "message_delta",
              delta: { stop_reason: "end_turn" },
              usage: { output_tokens: 5 },
            },
            { type: "message_stop" },
          ],
          true,
        )
      : JSON.stringify({
          id: "msg_1",
          type: "message",
          role: "assistant",
          model: "m",
          content: [{ type: "text", text }],
          stop_reason: "end_turn",
          stop_sequence: null,
          usage: { input_tokens: 3, output_tokens: 5 },
        }),
};

describe("item 4: a key's public prefix in an answer reaches the client byte for byte", () => {
  for (const protocol of ["openai", "anthropic"] as const) {
    for (const client of CLIENTS) {
      for (const stream of [false, true]) {
        it(`${client} client, ${protocol} upstream, ${stream ? "stream" : "non-stream"}`, async () => {
          upstream.script((request) => ({
            body: SAYING[protocol]!(request, `Set ${QUOTED} first`),
          }));
          const quoted = await call(client, protocol, stream);
          expect(quoted.status).toBe(200);
          expect(quoted.text).toContain(QUOTED);
          expect(quoted.text).not.toContain("[redacted]");
          // The channel's own key, or a long slice of its secret, never leaves.
          upstream.script((request) => ({
            body: SAYING[protocol]!(
              request,
              `mine is ${SCRIPTED_KEY} and ${SCRIPTED_KEY.slice(10, 20)}`,
            ),
          }));
          const leaked = await call(client, protocol, stream);
          expect(leaked.text).not.toContain(SCRIPTED_KEY.slice(8, 16));
          expect(leaked.text).not.toContain(SCRIPTED_KEY.slice(12, 20));
          expect(leaked.text).toContain("[redacted]");
        });
      }
    }
  }
});

describe("item 4: speech relays only audio", () => {
  const speak = () =>
    postJson(
      `${stack.gateway.url}/v1/audio/speech`,
      { model: SPEECH_MODEL, input: "hello there", voice: "alloy", response_format: "wav" },
      auth(),
    );
  it("an HTML page echoing the request's Authorization is a 502, never relayed, never charged", async () => {
    upstream.script((request) => ({
      contentType: "audio/wav",
      body: `<!DOCTYPE html><html><body>authorization: ${request.headers.authorization}</body></html>`,
    }));
    const res = await speak();
    expect(res.status).toBe(502);
    expect(res.text).not.toContain(SCRIPTED_KEY.slice(8));
    expect(res.text).toMatch(/not wav audio/);
    const row = await loggedRowOf(stack, res.headers.get("x-request-id"));
    expect(row.status).toBe(502);
    expect(row.credits).toBe(0);
  });
  it("a wav body is relayed as it came, and charged", async () => {
    const wav = Buffer.concat([
      Buffer.from("RIFF\x24\x00\x00\x00WAVEfmt ", "latin1"),
      Buffer.alloc(64, 1),
    ]);
    upstream.script(() => ({ contentType: "audio/wav", body: wav.toString("latin1") }));
    const res = await fetch(`${stack.gateway.url}/v1/audio/speech`, {
      method: "POST",
      headers: { "content-type": "application/json", ...auth() },
      body: JSON.stringify({ model: SPEECH_MODEL, input: "hello", voice: "alloy" }),
    });
    expect(res.status).toBe(200);
    expect(
      Buffer.from(await res.arrayBuffer()).equals(Buffer.from(wav.toString("latin1"), "utf8")),
    ).toBe(true);
  });
});

// --- Item 9: charges -------------------------------------------------------------------------

describe("item 9: what is charged", () => {
  it("a Responses upstream that fails right after response.created, reporting no usage, is not charged", async () => {
    upstream.script(() => ({
      body: sse(
        [
          {
            type: "response.created",
            sequence_number: 0,
            response: responsesReply("in_progress", []),
          },
          {
            type: "response.failed",
            sequence_number: 1,
            response: {
              ...responsesReply("failed", []),
              usage: null,
              error: { code: "server_error", message: "The model failed" },
            },
          },
        ],
        true,
      ),
    }));
    for (const client of CLIENTS) {
      const res = await call(client, "openai-responses", true, "hello ".repeat(200));
      expect(res.status).toBe(200);
      const row = await loggedRowOf(stack, res.headers.get("x-request-id"));
      expect(row.credits, client).toBe(0);
      expect(row.status).toBeGreaterThanOrEqual(500);
      expect(row.error).toMatch(/model failed/);
    }
  });

  it("a reply without usage is estimated from its text, stream and non-stream alike", async () => {
    const text = "hello";
    for (const stream of [false, true]) {
      upstream.script((request) => {
        const reply = SAYING.anthropic!(request, text);
        // The same reply without its usage (the message's, message_delta's).
        return {
          body: request.stream
            ? reply.replace(/,"usage":\{[^}]*\}/g, "")
            : JSON.stringify({ ...JSON.parse(reply), usage: undefined }),
        };
      });
      const res = await call("messages", "anthropic", stream);
      expect(res.status).toBe(200);
      const row = await loggedRowOf(stack, res.headers.get("x-request-id"));
      expect(row.completionTokens, stream ? "stream" : "non-stream").toBe(
        Math.ceil(text.length / 4),
      );
    }
  });
});

// --- Item 6: Gemini code execution -------------------------------------------------------------

const CODE_PARTS = [
  { text: "Let me compute." },
  { executableCode: { language: "PYTHON", code: "print(6 * 7)" } },
  { codeExecutionResult: { outcome: "OUTCOME_OK", output: "42\n" } },
  { someFuturePart: { x: 1 } },
  { text: "The answer is 42." },
];

describe("item 6: Gemini code execution and unknown parts", () => {
  for (const client of ["chat", "responses", "messages"] as const) {
    for (const stream of [false, true]) {
      it(`${client} client, ${stream ? "stream" : "non-stream"}: the code and its output are carried as text, never a 502`, async () => {
        upstream.script((request) => {
          const reply = {
            candidates: [
              { content: { role: "model", parts: CODE_PARTS }, finishReason: "STOP", index: 0 },
            ],
            usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 7, totalTokenCount: 12 },
            modelVersion: "m",
            responseId: "r1",
          };
          return { body: request.stream ? sse([reply]) : JSON.stringify(reply) };
        });
        // Repeated: such a reply never fails the call (nor, so, the channel's breaker).
        for (let i = 0; i < 4; i++) {
          const res = await call(client, "gemini", stream);
          expect(res.status).toBe(200);
          expect(res.text).toContain("print(6 * 7)");
          expect(res.text).toContain("42");
          expect(res.text).toContain("The answer is 42.");
          if (!stream) {
            expect(res.headers.get("x-interlingua-warnings")).toMatch(/parts\[1\]=mapped/);
            expect(res.headers.get("x-interlingua-warnings")).toMatch(/parts\[3\]=dropped/);
          }
        }
      });
    }
  }
});

// --- Item 7: requests the upstream would refuse ------------------------------------------------

describe("item 7: tool names the upstream refuses are renamed there and back", () => {
  const NAME = "ns.tools/get:weather";
  const LONG = `tool_${"x".repeat(70)}`;
  const RULE = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;
  /** Each upstream's whole reply calling the tool it was given (its first one). */
  const CALLING: Record<UpstreamProtocol, (name: string) => string> = {
    openai: (name) =>
      chatReply(EXACT_ARGS).replace('"name":"get_weather"', `"name":${JSON.stringify(name)}`),
    "openai-responses": (name) =>
      EXACT_REPLY["openai-responses"].replace(
        '"name":"get_weather"',
        `"name":${JSON.stringify(name)}`,
      ),
    anthropic: (name) =>
      EXACT_REPLY.anthropic.replace('"name":"get_weather"', `"name":${JSON.stringify(name)}`),
    gemini: (name) =>
      EXACT_REPLY.gemini.replace('"name":"get_weather"', `"name":${JSON.stringify(name)}`),
  };
  const sentNames = (request: ScriptedRequest): string[] => {
    const body = request.body;
    if (request.protocol === "gemini")
      return body.tools[0].functionDeclarations.map((f: Json) => f.name);
    if (request.protocol === "anthropic") return body.tools.map((t: Json) => t.name);
    if (request.protocol === "openai-responses") return body.tools.map((t: Json) => t.name);
    return body.tools.map((t: Json) => t.function.name);
  };
  for (const protocol of UPSTREAMS) {
    // A messages client, or toward Anthropic (the same format would pass its bytes on) a chat one.
    const client = protocol === "anthropic" ? "chat" : "messages";
    it(`a ${client} client's ${protocol} upstream gets valid names; the reply names the client's tool`, async () => {
      upstream.script((request) => ({ body: CALLING[protocol](sentNames(request)[0]!) }));
      const before = upstream.requests.length;
      const res =
        client === "messages"
          ? await postJson(
              `${stack.gateway.url}/v1/messages`,
              {
                model: SCRIPTED_MODEL[protocol],
                max_tokens: 100,
                messages: [{ role: "user", content: "weather?" }],
                tools: [
                  { name: NAME, input_schema: { type: "object" } },
                  { name: LONG, input_schema: { type: "object" } },
                ],
              },
              auth(),
            )
          : await postJson(
              `${stack.gateway.url}/v1/chat/completions`,
              {
                model: SCRIPTED_MODEL[protocol],
                messages: [{ role: "user", content: "weather?" }],
                tools: [NAME, LONG].map((name) => ({
                  type: "function",
                  function: { name, parameters: { type: "object" } },
                })),
              },
              auth(),
            );
      const sent = sentNames(upstream.requests[before]!);
      for (const name of sent) expect(name).toMatch(RULE);
      expect(new Set(sent).size).toBe(2);
      expect(res.status, res.text).toBe(200);
      const called =
        client === "messages"
          ? res.json.content.find((c: Json) => c.type === "tool_use").name
          : res.json.data.choices[0].message.tool_calls[0].function.name;
      expect(called).toBe(NAME);
    });
  }

  it("an empty assistant turn is left out toward Gemini, with a warning", async () => {
    upstream.script(() => ({ body: EXACT_REPLY.gemini }));
    const before = upstream.requests.length;
    const res = await postJson(
      `${stack.gateway.url}/v1/chat/completions`,
      {
        model: SCRIPTED_MODEL.gemini,
        messages: [
          { role: "user", content: "a" },
          { role: "assistant", content: "" },
          { role: "user", content: "b" },
        ],
      },
      auth(),
    );
    expect(res.status, res.text).toBe(200);
    const contents = upstream.requests[before]!.body.contents as Json[];
    for (const content of contents) {
      expect(content.parts.length).toBeGreaterThan(0);
      expect(content.parts.some((p: Json) => p.text !== "")).toBe(true);
    }
    expect(res.headers.get("x-interlingua-warnings")).toMatch(/messages\[1\]=dropped/);
  });
});

// --- Item 5: sources kept ------------------------------------------------------------------------

describe("item 5: citations reach the client (non-stream)", () => {
  const ANSWER = "Paris is the capital of France.";
  it("chat client, anthropic upstream: web_search citations become url_citation annotations", async () => {
    upstream.script(() => ({
      body: JSON.stringify({
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "m",
        content: [
          {
            type: "text",
            text: ANSWER,
            citations: [
              {
                type: "web_search_result_location",
                url: "https://example.org/france",
                title: "France",
                cited_text: "Paris is the capital and largest city of France.",
                encrypted_index: "Eo8BCioIAhgB",
              },
            ],
          },
        ],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 3, output_tokens: 5 },
      }),
    }));
    const res = await call("chat", "anthropic", false);
    expect(res.status).toBe(200);
    const body = JSON.parse(res.text) as Json;
    const data = (body["data"] ?? body) as { choices: { message: Record<string, unknown> }[] };
    expect(data.choices[0]?.message["annotations"]).toEqual([
      {
        type: "url_citation",
        url_citation: {
          url: "https://example.org/france",
          title: "France",
          start_index: 0,
          end_index: ANSWER.length,
        },
      },
    ]);
  });

  it("messages client, openai upstream: url_citation annotations become text citations", async () => {
    upstream.script(() => ({
      body: JSON.stringify({
        ...chatBase,
        object: "chat.completion",
        choices: [
          {
            index: 0,
            finish_reason: "stop",
            message: {
              role: "assistant",
              content: ANSWER,
              annotations: [
                {
                  type: "url_citation",
                  url_citation: {
                    url: "https://example.org/france",
                    title: "France",
                    start_index: 0,
                    end_index: 5,
                  },
                },
              ],
            },
          },
        ],
        usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
      }),
    }));
    const res = await call("messages", "openai", false);
    expect(res.status).toBe(200);
    const body = JSON.parse(res.text) as Json;
    const data = (body["data"] ?? body) as { content: Record<string, unknown>[] };
    expect(data.content).toEqual([
      {
        type: "text",
        text: "Paris",
        citations: [
          {
            type: "web_search_result_location",
            url: "https://example.org/france",
            title: "France",
            cited_text: "Paris",
            encrypted_index: "",
          },
        ],
      },
      { type: "text", text: ANSWER.slice(5) },
    ]);
    expect(res.headers.get("x-interlingua-warnings")).toMatch(/citations\[0\]=mapped/);
  });
});

describe("item 5: Gemini grounding reaches a Responses client (non-stream)", () => {
  it("responses client, gemini upstream: groundingSupports become url_citation annotations", async () => {
    const text = "Zürich is big. Bern is the capital.";
    const bytes = (s: string) => new TextEncoder().encode(s).length;
    upstream.script(() => ({
      body: JSON.stringify({
        candidates: [
          {
            content: { role: "model", parts: [{ text }] },
            finishReason: "STOP",
            index: 0,
            groundingMetadata: {
              groundingChunks: [{ web: { uri: "https://b.example", title: "b.example" } }],
              groundingSupports: [
                {
                  segment: { startIndex: bytes("Zürich is big. "), endIndex: bytes(text) },
                  groundingChunkIndices: [0],
                },
              ],
            },
          },
        ],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 7, totalTokenCount: 12 },
        modelVersion: "m",
        responseId: "r1",
      }),
    }));
    const { path, body } = REQUEST.responses({
      model: SCRIPTED_MODEL.gemini,
      text: "hi",
      stream: false,
    });
    const res = await postJson(stack.gateway.url + path, body, {
      ...auth(),
      "x-interlingua-envelope": "bare",
    });
    expect(res.status).toBe(200);
    const out = JSON.parse(res.text) as { output: { content?: Record<string, unknown>[] }[] };
    const part = out.output.flatMap((item) => item.content ?? [])[0];
    expect(part?.["annotations"]).toEqual([
      {
        type: "url_citation",
        start_index: 15,
        end_index: text.length,
        url: "https://b.example",
        title: "b.example",
      },
    ]);
    expect(text.slice(15)).toBe("Bern is the capital.");
  });
});

// --- Item 8: a system message in the middle of a chat ------------------------------------------

describe("item 8: a system message in the middle keeps its place or is reported", () => {
  const body = (model: string) => ({
    model,
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
      { role: "system", content: "From now on answer in French." },
      { role: "user", content: "how are you?" },
    ],
  });
  it("chat client, openai-responses upstream: the system item stays between the turns", async () => {
    upstream.script(() => ({
      body: JSON.stringify({
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
            content: [{ type: "output_text", text: "ok", annotations: [] }],
          },
        ],
        usage: { input_tokens: 3, output_tokens: 1, total_tokens: 4 },
      }),
    }));
    const before = upstream.requests.length;
    const res = await postJson(
      `${stack.gateway.url}/v1/chat/completions`,
      body(SCRIPTED_MODEL["openai-responses"]),
    );
    expect(res.status).toBe(200);
    const sent = upstream.requests[before]?.body as { input: Json[]; instructions?: string };
    expect(sent.instructions).toBe("Be brief.");
    expect(sent.input.map((item) => item["role"])).toEqual(["user", "assistant", "system", "user"]);
  });

  it("chat client, anthropic upstream: moved to the front with a warning; strict refuses", async () => {
    upstream.script((request) => ({ body: SAYING.anthropic!(request, "ok") }));
    const res = await postJson(
      `${stack.gateway.url}/v1/chat/completions`,
      body(SCRIPTED_MODEL.anthropic),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("x-interlingua-warnings")).toMatch(/system\[1\]\.position=dropped/);
    const before = upstream.requests.length;
    const strict = await postJson(
      `${stack.gateway.url}/v1/chat/completions`,
      body(SCRIPTED_MODEL.anthropic),
      { ...auth(), "x-interlingua-strict": "true" },
    );
    expect(strict.status).toBe(400);
    expect(strict.text).toContain("system[1].position");
    expect(upstream.requests.length).toBe(before);
  });
});

describe("item 8: Anthropic document context and citations", () => {
  const body = (model: string) => ({
    model,
    max_tokens: 50,
    messages: [
      {
        role: "user",
        content: [
          {
            type: "document",
            source: { type: "base64", media_type: "application/pdf", data: "JVBERi0xLjQK" },
            context: "Internal memo, 2024",
            citations: { enabled: true },
          },
          { type: "text", text: "Summarise." },
        ],
      },
    ],
  });

  it("messages client, openai upstream: reported; strict refuses before any upstream call", async () => {
    upstream.script((request) => ({ body: SAYING.openai!(request, "ok") }));
    const res = await postJson(`${stack.gateway.url}/v1/messages`, body(SCRIPTED_MODEL.openai));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-interlingua-warnings")).toMatch(/parts\[0\]\.context=dropped/);
    expect(res.headers.get("x-interlingua-warnings")).toMatch(/parts\[0\]\.citations=dropped/);
    const before = upstream.requests.length;
    const strict = await postJson(`${stack.gateway.url}/v1/messages`, body(SCRIPTED_MODEL.openai), {
      ...auth(),
      "x-interlingua-strict": "true",
    });
    expect(strict.status).toBe(400);
    expect(upstream.requests.length).toBe(before);
  });
});
