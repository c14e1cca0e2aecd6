import type { Frame } from "../core/framing.ts";
import type { JsonObject } from "../core/json.ts";
import type { ReplyPlan } from "../core/reply-plan.ts";
import { splitArguments, splitForStream } from "../core/words.ts";
import type { ResponsesTurn } from "./responses-turn.ts";
import {
  finalStatus,
  outputItems,
  type ResponseMeta,
  responseObject,
  responsesUsage,
} from "./responses-wire.ts";

// A Responses API stream as OpenAI sends it (see the openai-responses recordings): named events,
// each with a growing `sequence_number`: response.created, response.in_progress, then per output
// item `output_item.added`, its parts and deltas, `output_item.done`, and last
// response.completed (or response.incomplete) with the whole response and its usage.

type Event = JsonObject & { type: string };
type Item = ReturnType<typeof outputItems>[number];

/** The events between an item's `added` and `done`, by item type. */
const ITEM_EVENTS: Record<string, (item: Item, at: JsonObject) => Event[]> = {
  reasoning: (item, at) => {
    const summary = (item.summary as { text: string }[])[0];
    if (summary === undefined) return [];
    const part = { ...at, summary_index: 0 };
    return [
      {
        type: "response.reasoning_summary_part.added",
        ...part,
        part: { type: "summary_text", text: "" },
      },
      ...splitForStream(summary.text).map((delta) => ({
        type: "response.reasoning_summary_text.delta",
        ...part,
        delta,
      })),
      { type: "response.reasoning_summary_text.done", ...part, text: summary.text },
      {
        type: "response.reasoning_summary_part.done",
        ...part,
        part: { type: "summary_text", text: summary.text },
      },
    ];
  },
  message: (item, at) => {
    const text = (item.content as { text: string }[])[0]!.text;
    const part = { ...at, content_index: 0 };
    const empty = { type: "output_text", annotations: [], logprobs: [], text: "" };
    return [
      { type: "response.content_part.added", ...part, part: empty },
      ...splitForStream(text).map((delta) => ({
        type: "response.output_text.delta",
        ...part,
        delta,
        logprobs: [],
      })),
      { type: "response.output_text.done", ...part, text, logprobs: [] },
      { type: "response.content_part.done", ...part, part: { ...empty, text } },
    ];
  },
  function_call: (item, at) => {
    const args = item.arguments as string;
    return [
      ...splitArguments(args).map((delta) => ({
        type: "response.function_call_arguments.delta",
        ...at,
        delta,
      })),
      { type: "response.function_call_arguments.done", ...at, name: item.name, arguments: args },
    ];
  },
  custom_tool_call: (item, at) => {
    const input = item.input as string;
    return [
      ...splitForStream(input).map((delta) => ({
        type: "response.custom_tool_call_input.delta",
        ...at,
        delta,
      })),
      { type: "response.custom_tool_call_input.done", ...at, input },
    ];
  },
};

/** The item as `output_item.added` shows it: nothing generated yet. */
const STARTED: Record<string, (item: Item) => Item> = {
  reasoning: (item) => ({ ...item, summary: [] }),
  message: (item) => ({ ...item, status: "in_progress", content: [] }),
  function_call: (item) => ({ ...item, status: "in_progress", arguments: "" }),
  custom_tool_call: (item) => ({ ...item, status: "in_progress", input: "" }),
};

export function responsesStreamFrames(
  meta: ResponseMeta,
  body: JsonObject,
  turn: ResponsesTurn,
  plan: ReplyPlan,
): Frame[] {
  const items = outputItems(meta, turn, plan);
  const pending = responseObject(meta, body, "in_progress", [], null);
  const status = finalStatus(plan);
  const events: Event[] = [
    { type: "response.created", response: pending },
    { type: "response.in_progress", response: pending },
  ];
  items.forEach((item, output_index) => {
    const at = { item_id: item.id, output_index };
    events.push({
      type: "response.output_item.added",
      output_index,
      item: STARTED[item.type]!(item),
    });
    events.push(...ITEM_EVENTS[item.type]!(item, at));
    events.push({ type: "response.output_item.done", output_index, item });
  });
  events.push({
    type: `response.${status}`,
    response: responseObject(meta, body, status, items, responsesUsage(plan.usage)),
  });
  return events.map(({ type, ...rest }, sequence_number) => ({
    event: type,
    data: JSON.stringify({ type, sequence_number, ...rest }),
  }));
}
