import { describe, expect, it } from "vitest";
import { SCRIPTED_MODEL, sse, useScriptedStack } from "./scripted-upstream.ts";
import { postJson } from "./stack.ts";
import { type Json, parseSse } from "./wire.ts";

// A Responses client that asks for logprobs, streamed from a chat upstream: each
// response.output_text.delta carries its own tokens (OpenAI's ResponseTextDeltaEvent.logprobs:
// token, logprob, top_logprobs of {token, logprob}), and output_text.done and the completed
// item carry them all (the item's output_text part with `bytes` too).

const scripted = useScriptedStack();

const token = (text: string, logprob: number) => ({
  token: text,
  logprob,
  bytes: [...Buffer.from(text)],
  top_logprobs: [
    { token: text, logprob, bytes: [...Buffer.from(text)] },
    { token: "x", logprob: -9, bytes: [120] },
  ],
});
const PIECES = [
  ["Hel", -0.5],
  ["lo", -0.25],
] as const;

const chatChunk = (delta: Json, extra: Json = {}) => ({
  id: "c1",
  object: "chat.completion.chunk",
  created: 1,
  model: "gpt-5",
  choices: [{ index: 0, delta, finish_reason: null, ...extra }],
});

const chatStream = () =>
  sse([
    chatChunk({ role: "assistant", content: "" }),
    ...PIECES.map(([text, logprob]) =>
      chatChunk(
        { content: text },
        { logprobs: { content: [token(text, logprob)], refusal: null } },
      ),
    ),
    { ...chatChunk({}), choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
    {
      id: "c1",
      object: "chat.completion.chunk",
      created: 1,
      model: "gpt-5",
      choices: [],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    },
    "[DONE]",
  ]);

/** The event form: no bytes, top_logprobs as {token, logprob}. */
const eventToken = (text: string, logprob: number) => ({
  token: text,
  logprob,
  top_logprobs: [
    { token: text, logprob },
    { token: "x", logprob: -9 },
  ],
});

describe("Responses stream logprobs from a chat upstream", () => {
  it("each output_text.delta carries its tokens; done and completed carry them all", async () => {
    scripted.upstream.script(() => ({ body: chatStream() }));
    const res = await postJson(`${scripted.stack.gateway.url}/v1/responses`, {
      model: SCRIPTED_MODEL.openai,
      input: "hi",
      stream: true,
      include: ["message.output_text.logprobs"],
      top_logprobs: 2,
    });
    expect(res.status, res.text).toBe(200);
    const sent = scripted.upstream.requests.at(-1)!.body;
    expect(sent).toMatchObject({ logprobs: true, top_logprobs: 2 });
    const events = parseSse(res.text).map((f) => JSON.parse(f.data) as Json);
    const deltas = events.filter((e) => e.type === "response.output_text.delta");
    expect(deltas.map((e) => [e.delta, e.logprobs])).toEqual(
      PIECES.map(([text, logprob]) => [text, [eventToken(text, logprob)]]),
    );
    const done = events.find((e) => e.type === "response.output_text.done")!;
    expect(done.logprobs).toEqual(PIECES.map(([text, logprob]) => eventToken(text, logprob)));
    const completed = events.find((e) => e.type === "response.completed")!;
    const part = completed.response.output[0].content[0];
    expect(part.logprobs).toEqual(PIECES.map(([text, logprob]) => token(text, logprob)));
    // Sequence numbers still count up by one: no frame was lost or doubled by the wait.
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
  });

  it("without logprobs asked, deltas carry [] and go out as they come", async () => {
    scripted.upstream.script(() => ({ body: chatStream() }));
    const res = await postJson(`${scripted.stack.gateway.url}/v1/responses`, {
      model: SCRIPTED_MODEL.openai,
      input: "hi",
      stream: true,
    });
    expect(res.status).toBe(200);
    const deltas = parseSse(res.text)
      .map((f) => JSON.parse(f.data) as Json)
      .filter((e) => e.type === "response.output_text.delta");
    expect(deltas.map((e) => e.delta)).toEqual(["Hel", "lo"]);
  });
});
