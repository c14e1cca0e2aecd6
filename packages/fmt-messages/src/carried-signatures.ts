import {
  type AssistantPart,
  parseSignatureContent,
  SIGNATURE_PREFIX,
  signatureContent,
} from "@interlingua/core-types";

/**
 * Messages clients replay thinking blocks as received and nothing else opaque, so a signature a
 * tool_use or text block cannot hold (Gemini's thoughtSignature on a functionCall, which Gemini 3
 * refuses a turn without) rides after that block in an empty thinking block of its own, marked
 * (core-types carried-signature.ts). Parsing lifts it back onto its call (by id) or text.
 */
export const carrierBlock = (
  callId: string,
  signature: string,
): { type: "thinking"; thinking: ""; signature: string } => ({
  type: "thinking",
  thinking: "",
  signature: signatureContent(callId, signature),
});

const isCarrier = (part: AssistantPart): part is Extract<AssistantPart, { type: "thinking" }> =>
  part.type === "thinking" &&
  part.text === "" &&
  part.signature?.startsWith(SIGNATURE_PREFIX) === true &&
  parseSignatureContent(part.signature) !== undefined;

/** An assistant turn's carrier blocks put back as the signatures of their calls and text. */
export function liftCarriedSignatures(parts: AssistantPart[]): AssistantPart[] {
  if (!parts.some(isCarrier)) return parts;
  const calls = new Map<string, string>();
  const texts: string[] = [];
  const out: AssistantPart[] = [];
  for (const part of parts) {
    if (!isCarrier(part)) {
      out.push(part);
      continue;
    }
    const carried = parseSignatureContent(part.signature as string) as {
      callId: string;
      signature: string;
    };
    if (carried.callId === "") texts.push(carried.signature);
    else calls.set(carried.callId, carried.signature);
  }
  return out.map((part) => {
    if (part.type === "tool-call" && part.signature === undefined) {
      const signature = calls.get(part.id);
      return signature === undefined ? part : { ...part, signature };
    }
    if (part.type === "text" && part.signature === undefined && texts.length > 0) {
      return { ...part, signature: texts.shift() as string };
    }
    return part;
  });
}
