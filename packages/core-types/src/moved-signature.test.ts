import { describe, expect, it } from "vitest";
import type { AssistantPart } from "./content-part.js";
import {
  hasMovedThinkingSignature,
  moveThinkingSignature,
  restoreMovedThinkingSignature,
} from "./moved-signature.js";

const call = (signature?: string): AssistantPart => ({
  type: "tool-call",
  id: "c1",
  name: "f",
  arguments: "{}",
  ...(signature === undefined ? {} : { signature }),
});

describe("restoreMovedThinkingSignature", () => {
  it("puts a moved signature back on the thinking streamed before it, joined", () => {
    const parts: AssistantPart[] = [
      { type: "thinking", text: "a" },
      { type: "thinking", text: "b" },
      call(moveThinkingSignature("sig")),
    ];
    expect(hasMovedThinkingSignature(parts)).toBe(true);
    expect(restoreMovedThinkingSignature(parts, { alone: false })).toEqual([
      { type: "thinking", text: "ab", signature: "sig" },
      call(),
    ]);
  });

  it("a signature with no thinking before it stands alone only when asked", () => {
    const parts = [call(moveThinkingSignature("sig"))];
    expect(restoreMovedThinkingSignature(parts, { alone: true })).toEqual([
      { type: "thinking", text: "", signature: "sig" },
      call(),
    ]);
    expect(restoreMovedThinkingSignature(parts, { alone: false })).toEqual([call()]);
  });

  it("leaves an unmarked signature (another provider's) where it is", () => {
    const parts = [{ type: "thinking", text: "a" } as const, call("gemini-sig")];
    expect(hasMovedThinkingSignature(parts)).toBe(false);
    expect(restoreMovedThinkingSignature(parts, { alone: true })).toEqual(parts);
  });
});

describe("a signature that carries its thinking (Gemini CLI keeps no thought parts)", () => {
  const text = 'Let me think — ünïcode, "quotes" and\nlines.';
  const signature = "EqQBCkgIARABGAIiQE+/=";
  const moved = moveThinkingSignature(signature, text);

  it("restores the thinking byte for byte when the client sent only the visible part", () => {
    for (const alone of [true, false]) {
      expect(restoreMovedThinkingSignature([call(moved)], { alone })).toEqual([
        { type: "thinking", text, signature },
        call(),
      ]);
    }
  });

  it("replaces the thought text a client did send back, with the text that was signed", () => {
    const parts: AssistantPart[] = [
      { type: "thinking", text: "Let me think" },
      { type: "thinking", text: " (summary)" },
      { type: "text", text: "ok" },
      call(moved),
    ];
    expect(restoreMovedThinkingSignature(parts, { alone: false })).toEqual([
      { type: "thinking", text, signature },
      { type: "text", text: "ok" },
      call(),
    ]);
  });

  it("is one Gemini-safe token, and a damaged one is left as another provider's", () => {
    expect(moved).toMatch(/^interlingua\.thought:[A-Za-z0-9_-]+$/);
    const damaged = call(`${moved.slice(0, -3)}%%%`);
    expect(restoreMovedThinkingSignature([damaged], { alone: true })).toEqual([damaged]);
  });
});
