import type { AssistantMessage, Message, Request, Warning } from "@interlingua/core-types";

type AssistantPart = AssistantMessage["parts"][number];

/** An empty text part says nothing (Gemini ends a streamed turn with one): left out of a join. */
const saysSomething = (part: AssistantPart) =>
  part.type !== "text" ||
  part.text !== "" ||
  part.signature !== undefined ||
  part.cacheControl !== undefined ||
  part.citations !== undefined;

const callsTools = (message: Message | undefined): message is AssistantMessage =>
  message?.role === "assistant" && message.parts.some((part) => part.type === "tool-call");

/**
 * Chat wants an assistant turn's tool calls answered by the very next messages (OpenAI refuses
 * anything between), so an assistant message right after one with tool calls joins it: Gemini
 * clients keep one content for each streamed chunk, a call and the chunk ending the turn apart.
 * That last chunk's empty text, alone in a message after an assistant one, joins it too (silently:
 * it says nothing), so no empty assistant message goes.
 */
export function joinToolCallTurns(
  request: Request,
  onWarning: (warning: Warning) => void,
): Request {
  const messages: Message[] = [];
  request.messages.forEach((message, i) => {
    const last = messages.at(-1);
    const empty = message.role === "assistant" && !message.parts.some(saysSomething);
    if (
      message.role !== "assistant" ||
      last?.role !== "assistant" ||
      last.name !== message.name ||
      !(empty || callsTools(last))
    ) {
      messages.push(message);
      return;
    }
    messages[messages.length - 1] = {
      ...last,
      parts: [...last.parts.filter(saysSomething), ...message.parts.filter(saysSomething)],
    };
    if (empty) return;
    onWarning({
      type: "mapped",
      feature: `messages[${i}]`,
      message:
        "joined to the assistant turn before it: chat answers tool calls right after their turn",
    });
  });
  return messages.length === request.messages.length ? request : { ...request, messages };
}
