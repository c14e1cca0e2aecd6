import { type RenderOptions, type Response, responseToEvents } from "@interlingua/core-types";
import { ResponsesStreamEncoder } from "./render-responses-stream.js";
import type { ResponsesApiResponseWire } from "./responses-api-wire.js";

/**
 * Renders a canonical response as an OpenAI Responses object. It is, by construction, the object
 * the stream's terminal event carries for the same response (law 4 holds by design): the encoder
 * builds the output items (text -> message/output_text, thinking -> reasoning with summary and
 * encrypted_content, calls -> function_call, opaque parts -> marked reasoning items), the status
 * (`completed` / `incomplete` with `incomplete_details`) and the usage with its details. One
 * choice: later ones are dropped with a `choices` warning. `output_text` joins the text parts, as
 * the SDKs' convenience property does.
 */
export function renderResponsesApiResponse(
  response: Response,
  options: RenderOptions = {},
): ResponsesApiResponseWire {
  const encoder = new ResponsesStreamEncoder(
    options.onWarning ? { onWarning: options.onWarning } : {},
  );
  let last = "";
  const keepLast = (message: { data: string }) => {
    last = message.data;
  };
  for (const choice of response.choices) {
    choice.message.parts.forEach((part, j) => {
      if (part.type === "text" && part.citations !== undefined) {
        options.onWarning?.({
          type: "dropped",
          feature: "parts.citations",
          message: `choices[${choice.index}].message.parts[${j}]: annotations are not yet written`,
        });
      }
      // responseToEvents skips them silently; the Responses object has no output image or file.
      if (part.type === "image" || part.type === "file") {
        options.onWarning?.({
          type: "dropped",
          feature: `parts.${part.type}`,
          message: `choices[${choice.index}].message.parts[${j}]: no ${part.type} output item`,
        });
      }
    });
  }
  for (const event of responseToEvents(response)) encoder.push(event, keepLast);
  encoder.end(keepLast);
  const object = (JSON.parse(last) as { response: ResponsesApiResponseWire }).response;
  object.output_text = outputText(object.output);
  return object;
}

function outputText(output: readonly Record<string, unknown>[]): string {
  const texts: string[] = [];
  for (const item of output) {
    if (item["type"] !== "message" || !Array.isArray(item["content"])) continue;
    for (const part of item["content"] as Record<string, unknown>[]) {
      if (part["type"] === "output_text" && typeof part["text"] === "string") {
        texts.push(part["text"]);
      }
    }
  }
  return texts.join("");
}
