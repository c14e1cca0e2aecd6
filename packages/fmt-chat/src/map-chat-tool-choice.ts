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

/** `{type: "function", function: {name}}` and nothing else: the canonical model holds its name. */
function functionName(entry: unknown): string | undefined {
  if (!isRecord(entry) || entry["type"] !== "function" || Object.keys(entry).length !== 2) return;
  const fn = entry["function"];
  if (!isRecord(fn) || Object.keys(fn).length !== 1) return;
  const name = fn["name"];
  return typeof name === "string" && name !== "" ? name : undefined;
}

/**
 * `allowed_tools` listing only function tools by name, with mode `auto` or `required`: the
 * canonical choice with `allowed`. Any other list (custom or hosted tools) has no canonical form.
 */
function parseAllowedTools(choice: ChatToolChoice): ToolChoice | undefined {
  if (typeof choice === "string" || choice.type !== "allowed_tools") return;
  const allowed = (choice as { allowed_tools?: unknown }).allowed_tools;
  if (!isRecord(allowed) || Object.keys(allowed).some((k) => k !== "mode" && k !== "tools")) return;
  const { mode, tools } = allowed;
  if ((mode !== "auto" && mode !== "required") || !Array.isArray(tools) || tools.length === 0) {
    return;
  }
  const names = tools.map(functionName);
  if (names.some((name) => name === undefined)) return;
  return { type: mode, allowed: names as string[] };
}

/**
 * `allowed_tools` naming function tools is the canonical choice with `allowed`; another
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

export const isCarriedChatToolChoice = (choice: ChatToolChoice): boolean =>
  typeof choice !== "string" && choice.type !== "function" && !parseAllowedTools(choice);

export function renderChatToolChoice(choice: ToolChoice): ChatToolChoice {
  if (choice.type === "tool") return { type: "function", function: { name: choice.name } };
  if (choice.type !== "none" && choice.allowed) {
    return {
      type: "allowed_tools",
      allowed_tools: {
        mode: choice.type,
        tools: choice.allowed.map((name) => ({ type: "function", function: { name } })),
      },
    };
  }
  return toChatMode[choice.type];
}
