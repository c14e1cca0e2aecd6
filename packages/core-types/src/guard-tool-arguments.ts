import type { PushTransformer, SseMessage } from "./codec.js";
import type { Response } from "./response.js";
import { outputsOf } from "./response-outputs.js";
import type { StreamEvent } from "./stream-event.js";

type Emit = (event: StreamEvent) => void;

interface Call {
  args: string;
  checked: boolean;
}

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/**
 * Whatever an upstream stream does (a second start, missing stops, repeated or out-of-order
 * indices, a stream cut inside a call), every tool call a client receives has complete, valid
 * JSON arguments, or the stream ends with an error event: never a half-JSON argument string
 * that the client would act on. A call that ends with no arguments gets "{}" (the canonical
 * empty arguments); one whose arguments are not JSON when it ends, or when the stream ends,
 * ends the stream with a 502 error event, after which only usage (for billing) passes.
 * Only tool events are tracked: text passes at the cost of one type check.
 */
export function guardToolArguments(
  inner: PushTransformer<SseMessage, StreamEvent>,
): PushTransformer<SseMessage, StreamEvent> {
  const calls = new Map<string, Call>();
  const freeForm = new Set<string>();
  let failed = false;

  const fail = (emit: Emit, index: number): void => {
    failed = true;
    emit({
      type: "error",
      error: { status: 502, type: "bad_gateway", message: incompleteToolCallMessage(index) },
    });
  };

  /** Checks a call once, at its end: "" becomes "{}", anything else not JSON fails the stream. */
  const check = (
    key: string,
    call: Call,
    at: { index: number; alternative?: number },
    emit: Emit,
  ) => {
    if (call.checked) return true;
    call.checked = true;
    if (call.args === "") {
      call.args = "{}";
      emit({ type: "tool-arguments-delta", ...at, delta: "{}" });
      return true;
    }
    if (isJson(call.args)) return true;
    calls.delete(key);
    fail(emit, at.index);
    return false;
  };

  const through =
    (emit: Emit): Emit =>
    (event) => {
      if (failed) {
        if (event.type === "usage") emit(event);
        return;
      }
      switch (event.type) {
        case "tool-call-start": {
          const key = `${event.alternative ?? 0}:${event.index}`;
          // A custom tool's input is free text, not JSON: nothing to check.
          if (event.custom) freeForm.add(key);
          else if (!calls.has(key)) calls.set(key, { args: "", checked: false });
          break;
        }
        case "tool-arguments-delta": {
          const key = `${event.alternative ?? 0}:${event.index}`;
          if (freeForm.has(key)) break;
          const call = calls.get(key);
          if (call === undefined) calls.set(key, { args: event.delta, checked: false });
          else {
            call.args += event.delta;
            // More arguments after the call was checked: checked again at the end.
            call.checked = false;
          }
          break;
        }
        case "text-delta":
        case "thinking-delta": {
          // Text sent to a call's index lands in its arguments (accumulate-stream.ts).
          if (calls.size === 0 || event.delta === "") break;
          const call = calls.get(`${event.alternative ?? 0}:${event.index}`);
          if (call !== undefined) {
            call.args += event.delta;
            call.checked = false;
          }
          break;
        }
        case "part-end": {
          const key = `${event.alternative ?? 0}:${event.index}`;
          const call = calls.get(key);
          if (call !== undefined && !check(key, call, locate(event), emit)) return;
          break;
        }
        case "error":
          failed = true;
          break;
      }
      emit(event);
    };

  return {
    push: (message, emit) => inner.push(message, through(emit)),
    end(emit) {
      inner.end(through(emit));
      if (failed) return;
      for (const [key, call] of calls) {
        if (call.checked) continue;
        const [alternative, index] = key.split(":").map(Number) as [number, number];
        if (!check(key, call, alternative === 0 ? { index } : { index, alternative }, emit)) return;
      }
    },
  };
}

/** The error a tool call whose arguments are not complete JSON ends a reply with (502). */
export const incompleteToolCallMessage = (index: number): string =>
  `The upstream's tool call (part ${index}) did not finish with complete JSON arguments`;

/**
 * The guard's rule for a whole reply: the index of the first tool call whose arguments are not
 * JSON (a max-tokens stop inside the call), so a translated non-stream reply fails as its stream
 * does instead of carrying half arguments or inventing `{}`. Empty arguments are "{}" (fine).
 */
export function findIncompleteToolCall(response: Response): number | undefined {
  for (const output of outputsOf(response)) {
    const parts = output.message.parts;
    for (let index = 0; index < parts.length; index++) {
      const part = parts[index]!;
      // A custom tool's input is free text, not JSON arguments (client-tools.ts).
      if (part.type !== "tool-call" || part.custom === true) continue;
      if (part.arguments !== "" && !isJson(part.arguments)) {
        return index;
      }
    }
  }
  return undefined;
}

const locate = (event: { index: number; alternative?: number }) =>
  event.alternative === undefined
    ? { index: event.index }
    : { index: event.index, alternative: event.alternative };
