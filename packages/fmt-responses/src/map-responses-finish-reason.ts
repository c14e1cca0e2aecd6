import type { FinishReason, UnifiedFinishReason } from "@interlingua/core-types";
import type { resultFinishReasonValues } from "./responses-api.js";

export type ResultFinishReason = (typeof resultFinishReasonValues)[number];

/** docs/api-reference.md's result `finish_reason` values. */
export const resultFinishReasonToUnified = {
  stop: "stop",
  length: "length",
  content_filter: "content-filter",
  tool_calls: "tool-calls",
} as const satisfies Record<ResultFinishReason, UnifiedFinishReason>;

/** The result has no value for an errored or otherwise-ended generation: both read as `stop`. */
export const unifiedToResultFinishReason = {
  stop: "stop",
  length: "length",
  "content-filter": "content_filter",
  "tool-calls": "tool_calls",
  error: "stop",
  other: "stop",
} as const satisfies Record<UnifiedFinishReason, ResultFinishReason>;

export const isResultFinishReason = (value: string): value is ResultFinishReason =>
  Object.hasOwn(resultFinishReasonToUnified, value);

export function parseInterlinguaResponsesFinishReason(raw: string | null): FinishReason {
  if (raw === null) return { unified: "other" };
  return { unified: isResultFinishReason(raw) ? resultFinishReasonToUnified[raw] : "other", raw };
}

/** The raw value when it is one of the result's four, else the table's value for `unified`. */
export function renderInterlinguaResponsesFinishReason(reason: FinishReason): ResultFinishReason {
  if (reason.raw !== undefined && isResultFinishReason(reason.raw)) return reason.raw;
  return unifiedToResultFinishReason[reason.unified];
}

/**
 * The Responses API has no finish reason: a response ends with a status, `incomplete_details`
 * says why it is incomplete, and a completed response that made function calls is waiting for
 * their results. `raw` is the incomplete reason, or the status.
 */
export type ResponsesStatus = "completed" | "incomplete" | "failed" | "cancelled";

export const statusToUnified = {
  completed: "stop",
  incomplete: "other",
  failed: "error",
  cancelled: "other",
} as const satisfies Record<ResponsesStatus, UnifiedFinishReason>;

export const incompleteReasonToUnified: Readonly<Record<string, UnifiedFinishReason>> = {
  max_output_tokens: "length",
  content_filter: "content-filter",
};

const isStatus = (value: string): value is ResponsesStatus => Object.hasOwn(statusToUnified, value);

export function parseResponsesFinishReason(
  status: string | undefined,
  incompleteReason: string | null | undefined,
  madeFunctionCalls: boolean,
): FinishReason {
  if (status === "incomplete" && incompleteReason) {
    return {
      unified: incompleteReasonToUnified[incompleteReason] ?? "other",
      raw: incompleteReason,
    };
  }
  if (status === undefined || !isStatus(status)) {
    return status === undefined ? { unified: "other" } : { unified: "other", raw: status };
  }
  const unified = statusToUnified[status];
  return { unified: unified === "stop" && madeFunctionCalls ? "tool-calls" : unified, raw: status };
}

export interface ResponsesTerminal {
  status: "completed" | "incomplete" | "failed";
  incompleteReason?: string;
}

/**
 * The stream's terminal status per unified reason. It says what the result's `finish_reason`
 * says (unifiedToResultFinishReason), so a client reads the same stop streamed or not: `error`
 * and `other` (Gemini MALFORMED_FUNCTION_CALL, Anthropic pause_turn, ...) end `completed`, as the
 * result reads `stop`, with the same mapped warning. An upstream failure mid-stream is an error
 * event, which ends the stream `response.failed`.
 */
export const unifiedToTerminal = {
  stop: { status: "completed" },
  "tool-calls": { status: "completed" },
  length: { status: "incomplete", incompleteReason: "max_output_tokens" },
  "content-filter": { status: "incomplete", incompleteReason: "content_filter" },
  other: { status: "completed" },
  error: { status: "completed" },
} as const satisfies Record<UnifiedFinishReason, ResponsesTerminal>;

/** A raw status or incomplete reason is used as is when the Responses API knows it. */
export function renderResponsesFinishReason(reason: FinishReason): ResponsesTerminal {
  const raw = reason.raw;
  if (raw === "completed" || raw === "incomplete" || raw === "failed") return { status: raw };
  if (raw !== undefined && Object.hasOwn(incompleteReasonToUnified, raw)) {
    return { status: "incomplete", incompleteReason: raw };
  }
  return unifiedToTerminal[reason.unified];
}

/**
 * What the responses shapes cannot say of a block or refusal: `content_filter` has no field for
 * the reason (Gemini's block reason, an Anthropic refusal's category and explanation), so the
 * loss is a warning. Undefined when nothing is lost.
 */
export function droppedBlockReason(reason: FinishReason): string | undefined {
  if (reason.unified !== "content-filter") return undefined;
  const raw = reason.raw;
  const own =
    raw === undefined ||
    isResultFinishReason(raw) ||
    Object.hasOwn(incompleteReasonToUnified, raw) ||
    Object.hasOwn(statusToUnified, raw);
  const said = [own ? undefined : raw, reason.category, reason.explanation].filter(
    (s) => s !== undefined,
  );
  if (said.length === 0) return undefined;
  return `no field for the block reason (${said.join("; ")}); "content_filter" was sent`;
}
