import { type AssistantPart, movedThinkingSignature } from "@interlingua/core-types";

/**
 * A thinking signature that travelled on a call or text part (a Gemini-format client streamed
 * from Anthropic: core-types moved-signature.ts) goes back on the thinking block it was made
 * for: the turn's thinking parts, joined as they were streamed, signed byte for byte. Only a
 * marked signature moves, so a Gemini signature is never handed to Anthropic.
 */
export function restoreMovedThinkingSignature(parts: readonly AssistantPart[]): AssistantPart[] {
  const signedAt = parts.findIndex(
    (part) =>
      (part.type === "tool-call" || part.type === "text") &&
      movedThinkingSignature(part.signature) !== undefined,
  );
  if (signedAt < 0) return [...parts];
  const signed = parts[signedAt] as Extract<AssistantPart, { type: "text" | "tool-call" }>;
  const signature = movedThinkingSignature(signed.signature) as string;
  const { signature: _moved, ...unsigned } = signed;
  const out: AssistantPart[] = [];
  let thinking: Extract<AssistantPart, { type: "thinking" }> | undefined;
  parts.forEach((part, i) => {
    if (i === signedAt) {
      out.push(unsigned);
    } else if (part.type === "thinking" && part.signature === undefined && i < signedAt) {
      if (thinking === undefined) {
        thinking = { type: "thinking", text: part.text, signature };
        out.push(thinking);
      } else {
        thinking.text += part.text;
      }
    } else {
      out.push(part);
    }
  });
  return out;
}
