import type { AssistantPart, ToolCallPart } from "./content-part.js";
import type { Response } from "./response.js";

// Internal: the walk over a reply's tool calls that renaming (tool-names.ts) and lifting client
// tools (client-tools.ts) share. Not exported from the package.

/** `response` with every tool-call part replaced by what `map` makes of it. */
export function mapToolCalls(
  response: Response,
  map: (part: ToolCallPart) => AssistantPart,
): Response {
  const mapMessage = (message: Response["message"]): Response["message"] => ({
    ...message,
    parts: message.parts.map((part) => (part.type === "tool-call" ? map(part) : part)),
  });
  const out: Response = { ...response, message: mapMessage(response.message) };
  if (response.alternatives !== undefined) {
    out.alternatives = response.alternatives.map((alternative) => ({
      ...alternative,
      message: mapMessage(alternative.message),
    }));
  }
  return out;
}
