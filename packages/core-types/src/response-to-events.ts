import type { AssistantPart } from "./content-part.js";
import { splitResponseProviderExtras } from "./provider-extras-split.js";
import type { Response } from "./response.js";
import { outputsOf } from "./response-outputs.js";
import type { StreamEvent } from "./stream-event.js";

/**
 * The canonical event sequence of a whole response, in the canonical order: response-start, the
 * reply's provider extras, each output's logprobs, its parts bracketed by start and part-end, and
 * its finish (the primary output first; a `noOutput` response has none), then the final usage.
 * Gateways use it to stream a response that arrived whole; tests use it for law 4.
 * Image and file parts have no stream event and are skipped.
 */
export function responseToEvents(response: Response): StreamEvent[] {
  const events: StreamEvent[] = [
    { type: "response-start", id: response.id, model: response.model, created: response.created },
  ];
  // The primary output's provider extras go on its finish (outputsOf), the rest here.
  const { reply } = splitResponseProviderExtras(response.providerExtras);
  if (reply !== undefined) events.push({ type: "provider-extras", providerExtras: reply });
  for (const output of outputsOf(response)) {
    const at = output.index === 0 ? {} : { alternative: output.index };
    // Ahead of the parts: decoders of formats without part ends (chat, Gemini) close a part only
    // at the finish, so logprobs written after the parts would come back inside them.
    if (output.logprobs !== undefined) {
      const { content, average } = output.logprobs;
      events.push({
        type: "logprobs",
        ...at,
        content,
        ...(average === undefined ? {} : { average }),
      });
    }
    output.message.parts.forEach((part, index) => {
      events.push(...partEvents(part, { index, ...at }));
    });
    const finish: StreamEvent = { type: "finish", ...at, finishReason: output.finishReason };
    if (output.stopSequence !== undefined) finish.stopSequence = output.stopSequence;
    if (output.providerExtras !== undefined) finish.providerExtras = output.providerExtras;
    events.push(finish);
  }
  events.push({ type: "usage", usage: response.usage });
  return events;
}

function partEvents(
  part: AssistantPart,
  at: { index: number; alternative?: number },
): StreamEvent[] {
  const events: StreamEvent[] = [];
  const signature = (value: string | undefined) => {
    if (value !== undefined) events.push({ type: "signature-delta", ...at, signature: value });
  };
  switch (part.type) {
    case "text":
      events.push({ type: "part-start", ...at, kind: "text" });
      if (part.text) events.push({ type: "text-delta", ...at, delta: part.text });
      for (const citation of part.citations ?? [])
        events.push({ type: "citation", ...at, citation });
      signature(part.signature);
      break;
    case "thinking":
      events.push({ type: "part-start", ...at, kind: "thinking" });
      if (part.text) events.push({ type: "thinking-delta", ...at, delta: part.text });
      signature(part.signature);
      break;
    case "redacted-thinking":
      events.push({ type: "redacted-thinking", ...at, data: part.data });
      break;
    case "tool-call":
      events.push({
        type: "tool-call-start",
        ...at,
        id: part.id,
        name: part.name,
        ...(part.namespace === undefined ? {} : { namespace: part.namespace }),
        ...(part.custom === undefined ? {} : { custom: part.custom }),
      });
      if (part.arguments)
        events.push({ type: "tool-arguments-delta", ...at, delta: part.arguments });
      signature(part.signature);
      break;
    case "image":
    case "file":
      return [];
  }
  events.push({ type: "part-end", ...at });
  return events;
}
