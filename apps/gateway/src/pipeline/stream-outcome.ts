import { isUsageKnown, type StreamEvent, type Usage, type Warning } from "@interlingua/core-types";

/** What a stream said about itself, gathered for the request log and (later) billing. */
export interface StreamOutcome {
  usage?: Usage;
  finishReason?: string;
  error?: { status: number; type: string; message: string };
  /** The decoder itself failed (malformed upstream frames). */
  decodeError?: string;
  /**
   * Characters of text, thinking and tool-call arguments decoded so far: with `skippedChars`,
   * what a stream that ends without its final usage is charged for (billing/delivered-usage.ts).
   */
  outputChars?: number;
  /**
   * Characters of the frames the same-format tap let by undecoded, estimated when called (it
   * decodes the tap's sample): only billing's estimate for a stream without its usage needs it.
   */
  skippedChars?: () => number;
  /** What the client's encoder dropped or approximated while the stream ran (after the headers). */
  streamWarnings?: Warning[];
}

/**
 * Records usage (cumulative: the last one wins), the finish reason, in-stream errors and how much
 * output went by.
 */
export function recordEvent(outcome: StreamOutcome, event: StreamEvent): void {
  switch (event.type) {
    case "text-delta":
    case "thinking-delta":
    case "tool-arguments-delta":
      outcome.outputChars = (outcome.outputChars ?? 0) + event.delta.length;
      break;
    case "tool-call-start":
      outcome.outputChars = (outcome.outputChars ?? 0) + event.name.length;
      break;
    case "usage":
      // Unknown usage (none, or counts that are not counts) is estimated, never charged as zero.
      if (isUsageKnown(event.usage)) outcome.usage = event.usage;
      else delete outcome.usage;
      break;
    case "finish":
      outcome.finishReason = event.finishReason.unified;
      break;
    case "error":
      outcome.error = {
        status: event.error.status,
        type: event.error.type,
        message: event.error.message,
      };
      break;
    default:
  }
}
