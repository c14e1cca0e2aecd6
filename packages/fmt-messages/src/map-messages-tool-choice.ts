import type { Request, ToolChoice, Warning } from "@interlingua/core-types";
import type { MessagesToolChoice } from "./messages-api.js";

const fromMessagesType: Readonly<Record<Exclude<MessagesToolChoice["type"], "tool">, ToolChoice>> =
  {
    auto: { type: "auto" },
    any: { type: "required" },
    none: { type: "none" },
  };

/** The canonical pair a `tool_choice` carries: Anthropic puts the parallel switch inside it. */
export interface ParsedMessagesToolChoice {
  readonly toolChoice: ToolChoice;
  readonly parallelToolCalls?: boolean;
}

/** `disable_parallel_tool_use` is the canonical `parallelToolCalls`, inverted; `none` has none. */
export function parseMessagesToolChoice(choice: MessagesToolChoice): ParsedMessagesToolChoice {
  const toolChoice: ToolChoice =
    choice.type === "tool" ? { type: "tool", name: choice.name } : fromMessagesType[choice.type];
  return choice.type !== "none" && choice.disable_parallel_tool_use !== undefined
    ? { toolChoice, parallelToolCalls: !choice.disable_parallel_tool_use }
    : { toolChoice };
}

const toMessagesType = { auto: "auto", required: "any" } as const;

/**
 * The request's tool choice and parallel switch as one `tool_choice`. Without a choice, a parallel
 * switch still needs one (`auto`) when there are tools; otherwise it is dropped, warned.
 */
export function renderMessagesToolChoice(
  request: Pick<Request, "toolChoice" | "parallelToolCalls">,
  hasTools: boolean,
  onWarning: (warning: Warning) => void,
): MessagesToolChoice | undefined {
  const choice = request.toolChoice;
  const parallel = request.parallelToolCalls;
  const dropParallel = (message: string) =>
    onWarning({ type: "dropped", feature: "parallelToolCalls", message });
  if (choice?.type === "none") {
    if (parallel !== undefined) dropParallel("meaningless when no tool may be called");
    return { type: "none" };
  }
  let out: Exclude<MessagesToolChoice, { type: "none" }> | undefined =
    choice === undefined
      ? undefined
      : choice.type === "tool"
        ? { type: "tool", name: choice.name }
        : { type: toMessagesType[choice.type] };
  if (parallel !== undefined) {
    if (!out && !hasTools) {
      dropParallel("meaningless without tools");
      return undefined;
    }
    out ??= { type: "auto" };
    out.disable_parallel_tool_use = !parallel;
  }
  return out;
}
