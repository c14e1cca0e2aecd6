import type { Frame } from "../core/framing.ts";
import type { ReplyPlan } from "../core/reply-plan.ts";
import { splitArguments, splitForStream } from "../core/words.ts";
import {
  type Block,
  contentBlocks,
  type MessageMeta,
  messagesUsage,
  STOP_REASON,
} from "./messages-wire.ts";

// A Messages stream: message_start, per block content_block_start / deltas / content_block_stop
// (a ping after the first block starts, as the API does), message_delta with the cumulative usage
// and stop reason, message_stop. Every event is named on an `event:` line.

type Event = { type: string } & Record<string, unknown>;

function blockEvents(block: Block, index: number): Event[] {
  const delta = (d: Record<string, unknown>): Event => ({
    type: "content_block_delta",
    index,
    delta: d,
  });
  switch (block.type) {
    case "thinking":
      return [
        {
          type: "content_block_start",
          index,
          content_block: { type: "thinking", thinking: "", signature: "" },
        },
        ...splitForStream(block.thinking).map((thinking) =>
          delta({ type: "thinking_delta", thinking }),
        ),
        delta({ type: "signature_delta", signature: block.signature }),
      ];
    case "text":
      return [
        { type: "content_block_start", index, content_block: { type: "text", text: "" } },
        ...splitForStream(block.text).map((text) => delta({ type: "text_delta", text })),
      ];
    case "tool_use": {
      const json = JSON.stringify(block.input);
      // An empty first fragment, then the arguments; `{}` is sent as one empty fragment.
      const fragments = json === "{}" ? [""] : ["", ...splitArguments(json)];
      return [
        {
          type: "content_block_start",
          index,
          content_block: {
            type: "tool_use",
            id: block.id,
            name: block.name,
            input: {},
            caller: block.caller,
          },
        },
        ...fragments.map((partial_json) => delta({ type: "input_json_delta", partial_json })),
      ];
    }
  }
}

export function messageStreamFrames(meta: MessageMeta, plan: ReplyPlan): Frame[] {
  const usage = messagesUsage(plan.usage);
  const events: Event[] = [
    {
      type: "message_start",
      message: {
        model: meta.model,
        id: meta.id,
        type: "message",
        role: "assistant",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    },
  ];
  contentBlocks(plan).forEach((block, index) => {
    const [start, ...deltas] = blockEvents(block, index);
    events.push(start!);
    if (index === 0) events.push({ type: "ping" });
    events.push(...deltas, { type: "content_block_stop", index });
  });
  events.push(
    {
      type: "message_delta",
      delta: { stop_reason: STOP_REASON[plan.choices[0]!.stop], stop_sequence: null },
      usage: {
        input_tokens: usage.input_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens,
        cache_read_input_tokens: usage.cache_read_input_tokens,
        output_tokens: usage.output_tokens,
      },
    },
    { type: "message_stop" },
  );
  return events.map((event) => ({ event: event.type, data: JSON.stringify(event) }));
}
