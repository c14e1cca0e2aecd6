import { addFields, parseDataUrl, placeholderFileName } from "@interlingua/core-types";
import type {
  ChatAnyToolCall,
  ChatAssistantMessage,
  ChatFileBlock,
  ChatMessage,
  ChatRequestWire,
  ChatTextBlock,
  ChatTool,
  ChatToolCall,
} from "./chat-api.js";
import {
  chatRequestKeys,
  defaultToolParameters,
  isChatCustomCall,
  isChatFunctionTool,
} from "./chat-api.js";
import { legacyCallIds, withLegacyCall } from "./chat-legacy-functions.js";

/**
 * What a chat request becomes after parse and render (law 1: `render(parse(w))` equals
 * `normalizeChatRequest(w)`), rewritten on the wire. Exactly these changes, nothing else:
 * - known fields set to `null` are removed (null means unset);
 * - `stream: false` is removed; a streaming request gets `stream_options: {include_usage: true}`
 *   (the gateway always asks upstream for usage), a non-streaming one loses `stream_options`;
 * - `max_tokens` becomes `max_completion_tokens` (both given: both kept as they are);
 * - a string `stop` becomes a one-element array;
 * - `system` and `developer` messages move to the front in order, each content block its own
 *   `system` message, and lose `name`;
 * - content that is one text block without cache_control becomes a plain string; inline file
 *   data (not an image) without a filename gets `placeholderFileName` (OpenAI requires one);
 * - assistant turns: `refusal` (field or block) becomes text, empty `reasoning_content` and an
 *   empty `tool_calls` go, tool calls get `type: "function"` and "" arguments become "{}",
 *   content with no text becomes "";
 * - tool messages with an empty content array get content "";
 * - with `functions`: each gets `parameters` as function tools do, an assistant `function_call`
 *   stays (its "" arguments "{}"), a `function` message's null content becomes "". Without:
 *   a `function_call` becomes a tool call and a `function` message a tool message, with the ids
 *   chat-legacy-functions.ts gives them.
 * - function tools without `parameters` get `{type: "object", properties: {}}`, `strict: null`
 *   goes, an empty `tools` goes; json_schema loses `description` and gets `schema: {}` if absent.
 * Unknown fields (top level: kept; inside messages, tools or content blocks: dropped by the schema).
 */
export function normalizeChatRequest(wire: ChatRequestWire): ChatRequestWire {
  const legacy = wire.functions != null;
  const out: ChatRequestWire = {
    model: wire.model,
    messages: normalizeMessages(wire.messages, legacy),
  };
  addFields(out, wire, (key) => chatRequestKeys.has(key) && wire[key] === null);
  if (out.stream === true) out.stream_options = { include_usage: true };
  else {
    delete out.stream;
    delete out.stream_options;
  }
  if (out.max_tokens != null && out.max_completion_tokens == null) {
    out.max_completion_tokens = out.max_tokens;
    delete out.max_tokens;
  }
  if (typeof out.stop === "string") out.stop = [out.stop];
  if (out.tools != null) {
    if (out.tools.length === 0) delete out.tools;
    else out.tools = out.tools.map(normalizeTool);
  }
  if (out.functions != null) {
    out.functions = out.functions.map(({ parameters, ...fn }) => ({
      ...fn,
      parameters: parameters ?? defaultToolParameters(),
    }));
  }
  const format = out.response_format;
  if (format?.type === "json_schema") {
    const { description: _dropped, strict, schema, ...spec } = format.json_schema;
    out.response_format = {
      type: "json_schema",
      json_schema: { ...spec, schema: schema ?? {}, ...(strict == null ? {} : { strict }) },
    };
  }
  return out;
}

function normalizeTool(tool: ChatTool): ChatTool {
  if (!isChatFunctionTool(tool)) return tool;
  const { strict, parameters, ...fn } = tool.function;
  return {
    type: "function",
    function: {
      ...fn,
      parameters: parameters ?? defaultToolParameters(),
      ...(strict == null ? {} : { strict }),
    },
  };
}

const plainOrBlocks = (blocks: ChatTextBlock[]): string | ChatTextBlock[] => {
  const [only] = blocks;
  return blocks.length === 1 && only !== undefined && only.cache_control === undefined
    ? only.text
    : blocks;
};

function normalizeMessages(messages: ChatMessage[], legacy: boolean): ChatMessage[] {
  const system: ChatMessage[] = [];
  const rest: ChatMessage[] = [];
  const ids = legacyCallIds(messages);
  messages.forEach((message, i) => {
    switch (message.role) {
      case "system":
      case "developer":
        if (typeof message.content === "string") {
          system.push({ role: "system", content: message.content });
        } else {
          for (const block of message.content) {
            system.push({ role: "system", content: plainOrBlocks([block]) });
          }
        }
        break;
      case "user": {
        const content = Array.isArray(message.content)
          ? message.content.map(namedFile)
          : message.content;
        const [only] = Array.isArray(content) ? content : [];
        rest.push(
          Array.isArray(content) &&
            content.length === 1 &&
            only?.type === "text" &&
            only.cache_control === undefined
            ? { ...message, content: only.text }
            : { ...message, content },
        );
        break;
      }
      case "assistant":
        rest.push(normalizeAssistant(message, legacy ? undefined : ids.get(i)));
        break;
      case "function": {
        const content = message.content ?? "";
        rest.push(
          legacy
            ? { ...message, content }
            : { role: "tool", tool_call_id: ids.get(i) ?? "", content },
        );
        break;
      }
      case "tool":
        rest.push(
          typeof message.content === "string"
            ? message
            : {
                ...message,
                content: message.content.length === 0 ? "" : plainOrBlocks(message.content),
              },
        );
        break;
    }
  });
  return [...system, ...rest];
}

/** Inline file data without a filename gets the placeholder name the render sends OpenAI. */
function namedFile<T extends { type: string }>(block: T): T {
  if (block.type !== "file") return block;
  const { file } = block as unknown as ChatFileBlock;
  if (file.file_data === undefined || file.filename !== undefined) return block;
  const data = parseDataUrl(file.file_data);
  if (data === undefined || data.mediaType.startsWith("image/")) return block;
  return { ...block, file: { ...file, filename: placeholderFileName(data.mediaType) } };
}

/** `asToolCall`: the id a legacy function_call becomes a tool call under (no `functions`). */
function normalizeAssistant(
  message: ChatAssistantMessage,
  asToolCall: string | undefined,
): ChatAssistantMessage {
  const texts: ChatTextBlock[] = [];
  const content = message.content;
  if (typeof content === "string") {
    if (content !== "") texts.push({ type: "text", text: content });
  } else if (content) {
    for (const block of content) {
      texts.push(block.type === "text" ? block : { type: "text", text: block.refusal });
    }
  }
  if (message.refusal) texts.push({ type: "text", text: message.refusal });
  const out: ChatAssistantMessage = {
    role: "assistant",
    content: texts.length === 0 ? "" : plainOrBlocks(texts),
  };
  if (message.reasoning_content) out.reasoning_content = message.reasoning_content;
  const calls = withLegacyCall(message.tool_calls, message.function_call, asToolCall) ?? [];
  if (message.function_call != null && asToolCall === undefined) {
    out.function_call = (
      normalizeToolCall({ id: "", function: message.function_call }) as ChatToolCall
    ).function;
  }
  if (calls.length > 0) out.tool_calls = calls.map(normalizeToolCall);
  if (message.name !== undefined) out.name = message.name;
  return out;
}

export function normalizeToolCall(call: ChatAnyToolCall): ChatAnyToolCall {
  if (isChatCustomCall(call)) return { id: call.id, type: "custom", custom: { ...call.custom } };
  return {
    id: call.id,
    type: "function",
    function: {
      name: call.function.name,
      arguments: call.function.arguments === "" ? "{}" : call.function.arguments,
    },
  };
}
