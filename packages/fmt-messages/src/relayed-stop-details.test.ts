import { describe, expect, it } from "vitest";
import { readFixture } from "../test/helpers.js";
import { messagesRelayEdits, withStopDetailsText } from "./relayed-stop-details.js";

describe("stop_details on a relayed messages reply", () => {
  it("a body without it gets null after stop_reason; nothing else changes", () => {
    const body = readFixture("anthropic-text.json");
    const edited = messagesRelayEdits.body(body);
    expect(JSON.parse(edited)).toEqual({ ...JSON.parse(body), stop_details: null });
    expect(edited.replace(',"stop_details":null', "")).toBe(body);
    expect(edited).toContain('"stop_reason": "end_turn","stop_details":null,');
  });
  it("a body that has it (a refusal) is left byte for byte", () => {
    const body = readFixture("anthropic-refusal.json");
    expect(messagesRelayEdits.body(body)).toBe(body);
  });
  it("the top-level stop_reason is found after a tool input holding a key of that name", () => {
    const body = JSON.stringify({
      id: "m",
      content: [{ type: "tool_use", id: "t", name: "f", input: { stop_reason: "x" } }],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    const parsed = JSON.parse(withStopDetailsText(body));
    expect(parsed.stop_details).toBeNull();
    expect(parsed.content[0].input).toEqual({ stop_reason: "x" });
  });
  it("a reply whose last stop_reason is a tool input's key is left as it is, not edited there", () => {
    const body = JSON.stringify({
      id: "m",
      stop_reason: "tool_use",
      content: [{ type: "tool_use", id: "t", name: "f", input: { stop_reason: "x" } }],
    });
    expect(withStopDetailsText(body)).toBe(body);
    const braces = JSON.stringify({ id: "{[", content: [], stop_reason: "end_turn" });
    expect(JSON.parse(withStopDetailsText(braces)).stop_details).toBeNull();
  });
  it("a stream's message_start gets it; other frames are left as they are", () => {
    const [start, ...rest] = readFixture("anthropic-text.chunks.txt")
      .split("\n")
      .filter((line) => line !== "");
    const raw = `event: message_start\ndata: ${start}\n\n`;
    const edited = messagesRelayEdits.frame(raw);
    expect(JSON.parse(edited.split("data: ")[1] ?? "").message.stop_details).toBeNull();
    expect(messagesRelayEdits.frame(start ?? "")).toBe(edited.split("data: ")[1]?.trimEnd());
    for (const line of rest) expect(messagesRelayEdits.frame(line)).toBe(line);
  });
});
