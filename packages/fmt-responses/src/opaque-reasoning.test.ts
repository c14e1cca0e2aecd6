import {
  type AssistantPart,
  accumulateStream,
  type Request,
  type StreamEvent,
} from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { parseResponsesRequest } from "./parse-responses-request.js";
import { decodeResponsesEvents } from "./parse-responses-stream.js";
import { renderInterlinguaResponsesRequest } from "./render-responses-request.js";
import { encodeResponsesEvents } from "./render-responses-stream.js";

const CLAUDE_SIG = 'EqoBCkgIARAB+/="\\';
const GEMINI_SIG = "CiQB0e2Kb:7q/Xy==";

const parts: AssistantPart[] = [
  { type: "thinking", text: "plan", signature: CLAUDE_SIG },
  { type: "redacted-thinking", data: "RED+/==" },
  { type: "text", text: "On it.", signature: "TEXT:SIG" },
  { type: "tool-call", id: "call:1", name: "w", arguments: "{}", signature: GEMINI_SIG },
];

describe("opaque reasoning in the responses format", () => {
  it("a request's assistant turn round-trips signatures and redacted thinking byte for byte", () => {
    const request: Request = {
      model: "m",
      system: [],
      messages: [
        { role: "user", parts: [{ type: "text", text: "q" }] },
        { role: "assistant", parts },
      ],
      sampling: {},
      tools: [],
      stream: false,
    };
    const warnings: string[] = [];
    const wire = renderInterlinguaResponsesRequest(request, {
      onWarning: (w) => warnings.push(w.feature),
    });
    expect(warnings).toEqual([]);
    expect(parseResponsesRequest(JSON.parse(JSON.stringify(wire))).messages[1]).toStrictEqual({
      role: "assistant",
      parts,
    });
  });

  it("a streamed reply's output items, replayed as input by the client, give back the same parts", () => {
    const events: StreamEvent[] = [
      { type: "response-start", id: "resp_1", model: "m", created: 1_700_000_000 },
      { type: "part-start", index: 0, kind: "thinking" },
      { type: "thinking-delta", index: 0, delta: "plan" },
      { type: "signature-delta", index: 0, signature: CLAUDE_SIG },
      { type: "part-end", index: 0 },
      { type: "redacted-thinking", index: 1, data: "RED+/==" },
      { type: "part-end", index: 1 },
      { type: "part-start", index: 2, kind: "text" },
      { type: "text-delta", index: 2, delta: "On it." },
      { type: "signature-delta", index: 2, signature: "TEXT:SIG" },
      { type: "part-end", index: 2 },
      { type: "tool-call-start", index: 3, id: "call:1", name: "w" },
      { type: "signature-delta", index: 3, signature: GEMINI_SIG },
      { type: "tool-arguments-delta", index: 3, delta: "{}" },
      { type: "part-end", index: 3 },
      { type: "finish", finishReason: { unified: "tool-calls" } },
    ];
    const frames = encodeResponsesEvents(events).map((m) => JSON.parse(m.data));
    const output = frames.at(-1).response.output;
    // What the OpenAI Agents SDK does: the output items go back as input, as received.
    const request = parseResponsesRequest({
      model: "m",
      input: [{ role: "user", content: "q" }, ...output],
    });
    expect(request.messages[1]).toStrictEqual({ role: "assistant", parts });
    // And the stream decodes back to the same parts (an upstream or a replay of these frames).
    const decoded = accumulateStream(decodeResponsesEvents(encodeResponsesEvents(events)));
    expect(decoded.message.parts).toStrictEqual(parts);
  });
});
