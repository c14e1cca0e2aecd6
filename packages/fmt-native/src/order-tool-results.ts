import type { Message, ToolMessage, ToolResultPart, Warning } from "@interlingua/core-types";

/**
 * Gemini pairs a `functionResponse` with the previous turn's `functionCall` of the same name by
 * position among those of that name (call ids are the gateway's own and are not sent). A client
 * that answered two same-name calls in another order would have each result read as the
 * other's. So within each name, results are put in the order of the calls they answer, in the
 * slots that name already held (results of different names keep their places; a result whose id
 * no call of the previous assistant turn has stays behind those that match). Returns the input
 * itself when nothing moved.
 */
export function orderToolResults(
  messages: Message[],
  onWarning?: (warning: Warning) => void,
): Message[] {
  let out: Message[] | undefined;
  messages.forEach((message, m) => {
    const previous = messages[m - 1];
    if (message.role !== "tool" || previous?.role !== "assistant") return;
    const calls = new Map<string, { rank: number; name: string }>();
    for (const part of previous.parts) {
      if (part.type === "tool-call" && !calls.has(part.id)) {
        calls.set(part.id, { rank: calls.size, name: part.name });
      }
    }
    const parts = reorder(message.parts, calls);
    if (parts === message.parts) return;
    out ??= [...messages];
    out[m] = { ...message, parts } satisfies ToolMessage;
    onWarning?.({
      type: "mapped",
      feature: `messages[${m}].parts`,
      message:
        "tool results were put in the order of their same-name calls (matched by position upstream)",
    });
  });
  return out ?? messages;
}

function reorder(
  parts: ToolResultPart[],
  calls: ReadonlyMap<string, { rank: number; name: string }>,
): ToolResultPart[] {
  const slots = new Map<string, number[]>();
  parts.forEach((part, i) => {
    const name = part.name ?? calls.get(part.toolCallId)?.name ?? "";
    const list = slots.get(name);
    if (list === undefined) slots.set(name, [i]);
    else list.push(i);
  });
  const rank = (part: ToolResultPart) => calls.get(part.toolCallId)?.rank ?? calls.size;
  let moved = false;
  const out = [...parts];
  for (const indices of slots.values()) {
    // Array.prototype.sort is stable: equal ranks (unknown ids) keep their order.
    const sorted = indices.map((i) => parts[i] as ToolResultPart).sort((a, b) => rank(a) - rank(b));
    indices.forEach((slot, k) => {
      const part = sorted[k] as ToolResultPart;
      if (part !== parts[slot]) moved = true;
      out[slot] = part;
    });
  }
  return moved ? out : parts;
}
