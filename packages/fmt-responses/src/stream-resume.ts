// The pure half of resuming a Responses stream (`GET /v1/responses/{id}?stream=true&starting_after=N`,
// OpenAI's background streaming): which events end a stream, the event that says how a response
// ended when none was streamed, and an event renumbered (its `sequence_number`) for the log a
// resumed stream is read from.

/** The lifecycle events after which a Responses stream says nothing more. */
const TERMINAL_TYPES: ReadonlySet<string> = new Set([
  "response.completed",
  "response.incomplete",
  "response.failed",
]);

/** Whether an event of this `type` ends a Responses stream. */
export const isTerminalStreamEvent = (type: unknown): boolean =>
  typeof type === "string" && TERMINAL_TYPES.has(type);

/**
 * The terminal event of a Responses object that ended (`completed`, `incomplete`, `failed`),
 * numbered `sequence`; undefined for any other status (`cancelled` has no event in OpenAI's stream).
 */
export function terminalStreamEvent(
  response: Readonly<Record<string, unknown>>,
  sequence: number,
): Record<string, unknown> | undefined {
  const type = `response.${String(response["status"])}`;
  if (!TERMINAL_TYPES.has(type)) return undefined;
  return { type, sequence_number: sequence, response };
}
