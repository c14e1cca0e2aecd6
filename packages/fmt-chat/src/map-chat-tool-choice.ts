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

export function parseChatToolChoice(choice: ChatToolChoice): ToolChoice {
  if (typeof choice === "string") return fromChatMode[choice];
  return { type: "tool", name: choice.function.name };
}

export function renderChatToolChoice(choice: ToolChoice): ChatToolChoice {
  if (choice.type === "tool") return { type: "function", function: { name: choice.name } };
  return toChatMode[choice.type];
}
