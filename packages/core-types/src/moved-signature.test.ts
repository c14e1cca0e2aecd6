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
