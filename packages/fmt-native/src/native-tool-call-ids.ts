/**
 * The upstream's function calls usually carry no id (newer models may send one, which is kept).
 * Canonical tool calls need one, so the converters generate ids deterministically from where the
 * call sits: `gemini_call_<responseId>_<candidate>_<n>` in a response or stream (unique across a
 * conversation, since response ids are), `gemini_call_<n>` in a request. The prefix marks them as
 * invented: rendering toward this format omits them again, so the wire looks as the upstream sent
 * it, and tool results are matched to their calls by name and order instead.
 */
const prefix = "gemini_call_";

/** Only [A-Za-z0-9_-], so the ids are valid tool ids in every other format too. */
const safe = (part: string | number) => String(part).replace(/[^A-Za-z0-9_-]/g, "_");

export function generatedCallId(...scope: ReadonlyArray<string | number>): string {
  return (
    prefix +
    scope
      .filter((s) => s !== "")
      .map(safe)
      .join("_")
  );
}

export function isGeneratedCallId(id: string): boolean {
  return id.startsWith(prefix);
}
