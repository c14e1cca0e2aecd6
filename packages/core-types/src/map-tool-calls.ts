import type { AssistantPart, ToolCallPart } from "./content-part.js";
import type { Response } from "./response.js";

// Internal: the walk over a reply's tool calls that renaming (tool-names.ts) and lifting client
// tools (client-tools.ts) share. Not exported from the package.

/** `response` with every tool-call part replaced by what `map` makes of it. */
export function mapToolCalls(
  response: Response,
  map: (part: ToolCallPart) => AssistantPart,
): Response {
  return {
    ...response,
    choices: response.choices.map((choice) => ({
      ...choice,
      message: {
        ...choice.message,
        parts: choice.message.parts.map((part) => (part.type === "tool-call" ? map(part) : part)),
      },
    })),
  };
}
