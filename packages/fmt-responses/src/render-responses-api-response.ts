import {
  outputsOf,
  type RenderOptions,
  type Response,
  responseToEvents,
} from "@interlingua/core-types";
import { ResponsesStreamEncoder } from "./render-responses-stream.js";
import type { ResponsesResponseWire } from "./responses-api-wire.js";
import { urlCitationAnnotation } from "./responses-citations.js";

/**
 * Renders a canonical response as an OpenAI Responses object. It is, by construction, the object
 * the stream's terminal event carries for the same response (law 4 holds by design): the encoder
 * builds the output items (text -> message/output_text, thinking -> reasoning with summary and
 * encrypted_content, calls -> function_call, opaque parts -> marked reasoning items), the status
 * (`completed` / `incomplete` with `incomplete_details`) and the usage with its details. One
 * output: alternatives are dropped with a `choices` warning. `output_text` joins the text parts, as
 * the SDKs' convenience property does.
 */
export function renderResponsesResponse(
  response: Response,
  options: RenderOptions = {},
): ResponsesResponseWire {
  const encoder = new ResponsesStreamEncoder(
    options.onWarning ? { onWarning: options.onWarning } : {},
  );
  let last = "";
  const keepLast = (message: { data: string }) => {
    last = message.data;
  };
  const outputs = outputsOf(response);
  for (const choice of outputs) {
    choice.message.parts.forEach((part, j) => {
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
  const object = (JSON.parse(last) as { response: ResponsesResponseWire }).response;
  const first = outputs[0];
  if (first !== undefined) addAnnotations(object.output, first.message.parts, options.onWarning);
  object.output_text = outputText(object.output);
  return object;
}

/**
 * Text-part citations -> `url_citation` annotations on the output_text each part became (one
 * message item per text part, in order; offsets are the part's own, as in OpenAI's output_text).
 * A part whose item cannot be found is reported, never dropped silently.
 */
function addAnnotations(
  output: readonly Record<string, unknown>[],
  parts: Response["message"]["parts"],
  onWarning: RenderOptions["onWarning"],
): void {
  const texts: Record<string, unknown>[] = [];
  for (const item of output) {
    if (item["type"] !== "message" || !Array.isArray(item["content"])) continue;
    for (const part of item["content"] as Record<string, unknown>[]) {
      if (part["type"] === "output_text") texts.push(part);
    }
  }
  let next = 0;
  parts.forEach((part, j) => {
    if (part.type !== "text") return;
    let at = next;
    while (at < texts.length && texts[at]?.["text"] !== part.text) at++;
    const target = texts[at];
    if (target !== undefined) next = at + 1;
    if (part.citations === undefined) return;
    if (target === undefined) {
      onWarning?.({
        type: "dropped",
        feature: "parts.citations",
        message: `choices[0].message.parts[${j}].citations: no output_text holds this text`,
      });
      return;
    }
    target["annotations"] = part.citations.map((c) =>
      urlCitationAnnotation(c, c.startIndex ?? 0, c.endIndex ?? part.text.length),
    );
    part.citations.forEach((c, k) => {
      if (c.citedText === undefined) return;
      onWarning?.({
        type: "dropped",
        feature: "parts.citations",
        message: `choices[0].message.parts[${j}].citations[${k}].citedText: url_citation has no cited text`,
      });
    });
  });
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
