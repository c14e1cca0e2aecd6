import { type AssistantPart, movedThinking, moveThinkingSignature } from "@interlingua/core-types";

/**
 * A reply translated for a Gemini client: a thinking part's signature (another provider's, such
 * as Anthropic's) goes onto the next visible part, with the thinking's text, because Gemini
 * clients keep a turn's visible parts and their thoughtSignature but not its thought parts (Gemini
 * CLI). A next part with a signature of its own leaves it on an empty text part of its own. The
 * stream encoder does the same as the events come (render-native-stream.ts); a whole reply gets it
 * from the caller that knows the signatures are not Gemini's own (the gateway, for a translated
 * reply), so the codec's own round trip stays exact.
 */
export function carryThinkingSignatures(parts: readonly AssistantPart[]): AssistantPart[] {
  const out: AssistantPart[] = [];
  let held: string | undefined;
  const release = () => {
    if (held !== undefined) out.push({ type: "text", text: "", signature: held });
    held = undefined;
  };
  for (const part of parts) {
    if (part.type === "thinking" && part.signature !== undefined) {
      release();
      const { signature, ...unsigned } = part;
      held = moveThinkingSignature(signature, part.text);
      out.push(unsigned);
      continue;
    }
    if ((part.type === "text" || part.type === "tool-call") && held !== undefined) {
      if (part.signature === undefined) {
        out.push({ ...part, signature: held });
        held = undefined;
        continue;
      }
      release();
    }
    out.push(part);
  }
  release();
  return out;
}

/**
 * The other way, for a reply read back: a carried signature goes back on the last unsigned
 * thinking part before it, and an empty text part that only carried it goes away.
 */
export function restoreCarriedThinking(parts: readonly AssistantPart[]): AssistantPart[] {
  const out: AssistantPart[] = [];
  for (const part of parts) {
    const moved =
      part.type === "text" || part.type === "tool-call" ? movedThinking(part.signature) : undefined;
    const at = moved === undefined ? -1 : out.findLastIndex((p) => p.type === "thinking");
    const thinking = out[at];
    if (moved === undefined || thinking?.type !== "thinking" || thinking.signature !== undefined) {
      out.push(part);
      continue;
    }
    out[at] = { ...thinking, signature: moved.signature };
    const { signature: _carried, ...unsigned } = part as Extract<
      AssistantPart,
      { signature?: string }
    >;
    if (!(unsigned.type === "text" && unsigned.text === "")) out.push(unsigned as AssistantPart);
  }
  return out;
}
