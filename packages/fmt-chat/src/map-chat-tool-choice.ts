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

/**
 * `allowed_tools` reads as its mode and a forced custom tool as that tool; the wire value stays in
 * extras (`isCarriedChatToolChoice`) so an OpenAI upstream gets it as sent.
 */
export function parseChatToolChoice(choice: ChatToolChoice): ToolChoice {
  if (typeof choice === "string") return fromChatMode[choice];
  const named = choice as { function?: { name?: unknown }; custom?: { name?: unknown } };
  const name = named.function?.name ?? named.custom?.name;
  if (typeof name === "string" && name !== "") return { type: "tool", name };
  if (choice.type === "allowed_tools") {
    const mode = (choice as { allowed_tools?: { mode?: unknown } }).allowed_tools?.mode;
    return mode === "required" ? { type: "required" } : { type: "auto" };
  }
  return { type: "required" };
}

export const isCarriedChatToolChoice = (choice: ChatToolChoice): boolean =>
  typeof choice !== "string" && choice.type !== "function";

export function renderChatToolChoice(choice: ToolChoice): ChatToolChoice {
  if (choice.type === "tool") return { type: "function", function: { name: choice.name } };
  return toChatMode[choice.type];
}
