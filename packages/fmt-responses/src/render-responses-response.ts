import {
  outputsOf,
  type RenderOptions,
  type Response,
  type Warning,
} from "@interlingua/core-types";
import {
  droppedBlockReason,
  renderInterlinguaResponsesFinishReason,
} from "./map-responses-finish-reason.js";
import { renderInterlinguaResponsesUsage } from "./map-responses-usage.js";
import type {
  InterlinguaResponsesResponseWire,
  ResponsesResultChoice,
  ResponsesResultToolCall,
} from "./responses-api.js";

const ignore = (_: Warning) => {};

/**
 * Renders the `data` of a `POST /v1/responses` result. The shape has one text and a list of
 * calls per choice: text parts are joined, thinking and anything else is dropped with a warning.
 */
export function renderInterlinguaResponsesResponse(
  response: Response,
  options: RenderOptions = {},
): InterlinguaResponsesResponseWire {
  const warn = options.onWarning ?? ignore;
  if (response.providerExtras?.gemini?.promptFeedback !== undefined) {
    warn({
      type: "dropped",
      feature: "promptFeedback",
      message: "the responses result has no prompt feedback",
    });
  }
  return {
    id: response.id,
    object: "response",
    created: response.created,
    model: response.model,
    choices: outputsOf(response).map((choice): ResponsesResultChoice => {
      const at = `choices[${choice.index}]`;
      if (choice.logprobs !== undefined) {
        warn({
          type: "dropped",
          feature: `${at}.logprobs`,
          message: "the responses result has no log probabilities",
        });
      }
      const texts: string[] = [];
      const calls: ResponsesResultToolCall[] = [];
      choice.message.parts.forEach((part, j) => {
        const partAt = `${at}.message.parts[${j}]`;
        if (part.type === "text" || part.type === "tool-call") {
          if (part.signature !== undefined) {
            warn({
              type: "dropped",
              feature: "parts.signature",
              message: `${partAt}.signature: the responses result has no signatures`,
            });
          }
        }
        switch (part.type) {
          case "text":
            if (part.citations !== undefined) {
              warn({
                type: "dropped",
                feature: "parts.citations",
                message: `${partAt}.citations: the responses result has no annotations`,
              });
            }
            texts.push(part.text);
            return;
          case "tool-call":
            calls.push({
              id: part.id,
              type: "function",
              function: {
                name: part.name,
                arguments: part.arguments === "" ? "{}" : part.arguments,
              },
            });
            return;
          default:
            warn({
              type: "dropped",
              feature: `parts.${part.type}`,
              message: `${partAt}: ${part.type} parts have no place in the responses result`,
            });
        }
      });
      if (texts.length > 1) {
        warn({
          type: "mapped",
          feature: "parts.text",
          message: `${at}: ${texts.length} text parts joined into one content string`,
        });
      }
      if (choice.stopSequence !== undefined) {
        warn({
          type: "dropped",
          feature: "choices.stopSequence",
          message: `${at}.stopSequence: the responses result does not name it`,
        });
      }
      if (choice.providerExtras?.gemini?.safetyRatings !== undefined) {
        warn({
          type: "dropped",
          feature: "choices.safetyRatings",
          message: `${at}.safetyRatings: the responses result has no safety ratings`,
        });
      }
      const blockReason = droppedBlockReason(choice.finishReason);
      if (blockReason !== undefined) {
        warn({ type: "dropped", feature: "finishReason.raw", message: `${at}: ${blockReason}` });
      }
      const finishReason = renderInterlinguaResponsesFinishReason(choice.finishReason);
      if (choice.finishReason.unified === "error" || choice.finishReason.unified === "other") {
        if (choice.finishReason.raw !== finishReason) {
          warn({
            type: "mapped",
            feature: "finishReason",
            message: `${at}: finish reason ${choice.finishReason.unified} reads as ${finishReason}`,
          });
        }
      }
      const message: ResponsesResultChoice["message"] = {
        role: "assistant",
        content: texts.length === 0 ? null : texts.join(""),
      };
      if (calls.length > 0) message.tool_calls = calls;
      return { index: choice.index, message, finish_reason: finishReason };
    }),
    usage: renderInterlinguaResponsesUsage(response.usage, warn),
  };
}
