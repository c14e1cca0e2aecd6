import type { ToolChoice } from "@interlingua/core-types";
import type { ChatToolChoice } from "./chat-api.js";

const fromChatMode: Readonly<Record<"auto" | "none" | "required", ToolChoice>> = {
  auto: { type: "auto" },
  none: { type: "none" },
  required: { type: "required" },
};

const toChatMode: Readonly<
  Record<Exclude<ToolChoice["type"], "tool">, "auto" | "none" | "required">
> = {
  auto: "auto",
  none: "none",
  required: "required",
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * `{type: "function", function: {name}}` or `{type: "custom", custom: {name}}` and nothing
 * else: the canonical model holds its name (a custom tool is a function elsewhere).
 */
function toolName(entry: unknown): string | undefined {
  if (!isRecord(entry) || Object.keys(entry).length !== 2) return;
  const kind = entry["type"];
  if (kind !== "function" && kind !== "custom") return;
  const fn = entry[kind];
  if (!isRecord(fn) || Object.keys(fn).length !== 1) return;
  const name = fn["name"];
  return typeof name === "string" && name !== "" ? name : undefined;
}

const namesCustomTool = (choice: ChatToolChoice): boolean => {
  const tools = (choice as { allowed_tools?: { tools?: unknown } }).allowed_tools?.tools;
  return Array.isArray(tools) && tools.some((t) => isRecord(t) && t["type"] === "custom");
};

/**
 * `allowed_tools` listing only function and custom tools by name, with mode `auto` or
 * `required`: the canonical choice with `allowed`. Any other list (hosted tools) has no
 * canonical form.
 */
function parseAllowedTools(choice: ChatToolChoice): ToolChoice | undefined {
  if (typeof choice === "string" || choice.type !== "allowed_tools") return;
  const allowed = (choice as { allowed_tools?: unknown }).allowed_tools;
  if (!isRecord(allowed) || Object.keys(allowed).some((k) => k !== "mode" && k !== "tools")) return;
  const { mode, tools } = allowed;
  if ((mode !== "auto" && mode !== "required") || !Array.isArray(tools) || tools.length === 0) {
    return;
  }
  const names = tools.map(toolName);
  if (names.some((name) => name === undefined)) return;
  return { type: mode, allowed: names as string[] };
}

/**
 * `allowed_tools` naming function or custom tools is the canonical choice with `allowed`; another
 * `allowed_tools` reads as its mode and a forced custom tool as that tool, the wire value staying
 * in extras (`isCarriedChatToolChoice`) so an OpenAI upstream gets it as sent.
 */
export function parseChatToolChoice(choice: ChatToolChoice): ToolChoice {
  if (typeof choice === "string") return fromChatMode[choice];
  const named = choice as { function?: { name?: unknown }; custom?: { name?: unknown } };
  const name = named.function?.name ?? named.custom?.name;
  if (typeof name === "string" && name !== "") return { type: "tool", name };
  if (choice.type === "allowed_tools") {
    const canonical = parseAllowedTools(choice);
    if (canonical) return canonical;
    const mode = (choice as { allowed_tools?: { mode?: unknown } }).allowed_tools?.mode;
    return mode === "required" ? { type: "required" } : { type: "auto" };
  }
  return { type: "required" };
}

/** An `allowed_tools` the canonical choice holds whole (its `allowed`), carried or not. */
export const isCanonicalChatAllowedTools = (choice: unknown): boolean =>
  isRecord(choice) && parseAllowedTools(choice as ChatToolChoice) !== undefined;

/**
 * A wire choice the canonical one only approximates, carried as given toward OpenAI: also an
 * `allowed_tools` naming a custom tool (the canonical list does not say which are custom).
 */
export const isCarriedChatToolChoice = (choice: ChatToolChoice): boolean =>
  typeof choice !== "string" &&
  choice.type !== "function" &&
  (!parseAllowedTools(choice) || namesCustomTool(choice));

/** `customTools`: names of the request's custom tools, which chat names as `custom`. */
export function renderChatToolChoice(
  choice: ToolChoice,
  customTools: ReadonlySet<string> = new Set(),
): ChatToolChoice {
  const entry = (name: string) =>
    customTools.has(name)
      ? { type: "custom", custom: { name } }
      : { type: "function", function: { name } };
  if (choice.type === "tool") return entry(choice.name) as ChatToolChoice;
  if (choice.type !== "none" && choice.allowed) {
    return {
      type: "allowed_tools",
      allowed_tools: { mode: choice.type, tools: choice.allowed.map(entry) },
    };
  }
  return toChatMode[choice.type];
}
