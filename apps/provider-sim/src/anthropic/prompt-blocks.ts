import { asArray, asObject, asString, isObject, type JsonObject } from "../core/json.ts";

// A Messages prompt as the ordered blocks Anthropic caches (tools, then system, then messages),
// each with its size and its cache_control. The token count of the whole prompt is the sum of
// these blocks, so a cached prefix and the rest always add up to the prompt.

/** A `cache_control` as sent, where it was sent (Anthropic's error-path spelling). */
export type CacheControlAt = { path: string; value: unknown };

export type PromptBlock = {
  /** `tools.0`, `system.1`, `messages.2.content.0`. */
  path: string;
  /** The block type (`text`, `tool_use`, `thinking`, ...); `tool` for a tool definition. */
  type: string;
  chars: number;
  media: number;
  /**
   * What the cache compares: the block without cache_control, with its role and message start.
   * Made only when the request has a breakpoint, not for every request the simulator counts.
   */
  identity: () => string;
  /** Its own cache_control, then any inside its content (tool_result blocks). */
  controls: CacheControlAt[];
};

/** Text of a tool result's content (a string, or blocks whose text is joined by newlines). */
export function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  return asArray(content)
    .map((block) => asString(asObject(block)?.text) ?? "")
    .join("\n");
}

const length = (value: unknown) => asString(value)?.length ?? 0;

/** Characters each block type contributes; any other type (image, document, ...) is one media part. */
const BLOCK_CHARS: Record<string, (block: JsonObject) => number> = {
  text: (block) => length(block.text),
  thinking: (block) => length(block.thinking),
  tool_use: (block) => length(block.name) + JSON.stringify(block.input ?? {}).length,
  tool_result: (block) => resultText(block.content).length,
  redacted_thinking: () => 0,
};

/** `cache_control: null` is accepted as "none". */
const controlOf = (value: JsonObject, path: string): CacheControlAt[] =>
  value.cache_control === undefined || value.cache_control === null
    ? []
    : [{ path, value: value.cache_control }];

const withoutControl = (value: JsonObject): JsonObject => {
  if (!("cache_control" in value)) return value;
  const { cache_control: _control, ...rest } = value;
  return rest;
};

function blockFor(block: JsonObject, path: string, role: string, first: boolean): PromptBlock {
  const type = asString(block.type) ?? "";
  const count = BLOCK_CHARS[type];
  const controls = [
    ...controlOf(block, path),
    ...asArray(block.content).flatMap((inner, i) =>
      isObject(inner) ? controlOf(inner, `${path}.content.${i}`) : [],
    ),
  ];
  const identityOf = () =>
    type === "tool_result" && Array.isArray(block.content)
      ? {
          ...withoutControl(block),
          content: block.content.map((c) => (isObject(c) ? withoutControl(c) : c)),
        }
      : withoutControl(block);
  return {
    path,
    type,
    chars: count ? count(block) : 0,
    media: count ? 0 : 1,
    identity: () => `${role}${first ? "^" : ""}:${JSON.stringify(identityOf())}`,
    controls,
  };
}

/** Tool definitions: together they count as the JSON of the tools array, cache_control left out. */
function toolBlocks(tools: unknown): PromptBlock[] {
  if (tools === undefined) return [];
  if (!Array.isArray(tools) || tools.length === 0) {
    const json = JSON.stringify(tools);
    return [
      {
        path: "tools",
        type: "tools",
        chars: json.length,
        media: 0,
        identity: () => `tools:${json}`,
        controls: [],
      },
    ];
  }
  return tools.map((tool, i): PromptBlock => {
    const object = asObject(tool) ?? {};
    const json = JSON.stringify(isObject(tool) ? withoutControl(tool) : tool);
    // "[" + items joined by "," + "]": one separator per tool, the closing bracket on the last.
    const chars = json.length + 1 + (i === tools.length - 1 ? 1 : 0);
    return {
      path: `tools.${i}`,
      type: "tool",
      chars,
      media: 0,
      identity: () => `tool:${json}`,
      controls: controlOf(object, `tools.${i}`),
    };
  });
}

/** The system prompt: a string is one text block; blocks of an array are joined by newlines. */
function systemBlocks(system: unknown): PromptBlock[] {
  if (system === undefined) return [];
  if (typeof system === "string") {
    return [
      {
        path: "system",
        type: "text",
        chars: system.length,
        media: 0,
        identity: () => `system:${system}`,
        controls: [],
      },
    ];
  }
  return asArray(system).map((block, i): PromptBlock => {
    const object = asObject(block) ?? {};
    return {
      path: `system.${i}`,
      type: asString(object.type) ?? "",
      chars: length(object.text) + (i > 0 ? 1 : 0),
      media: 0,
      identity: () => `system:${JSON.stringify(withoutControl(object))}`,
      controls: controlOf(object, `system.${i}`),
    };
  });
}

/** The blocks of one message; string content is one text block. */
function messageBlocks(message: JsonObject, m: number): PromptBlock[] {
  const role = asString(message.role) ?? "";
  if (typeof message.content === "string") {
    return [blockFor({ type: "text", text: message.content }, `messages.${m}.content`, role, true)];
  }
  const blocks: PromptBlock[] = [];
  asArray(message.content).forEach((block, b) => {
    if (isObject(block))
      blocks.push(blockFor(block, `messages.${m}.content.${b}`, role, blocks.length === 0));
  });
  return blocks;
}

/** Every block of the prompt in Anthropic's cache order: tools, system, messages. */
export function promptBlocks(body: JsonObject, messages: JsonObject[]): PromptBlock[] {
  return [
    ...toolBlocks(body.tools),
    ...systemBlocks(body.system),
    ...messages.flatMap((message, m) => messageBlocks(message, m)),
  ];
}
