import type { Handler } from "hono";
import { parseDirectives } from "../core/directives.ts";
import type { SimEnv } from "../core/env.ts";
import { asNumber, asString, isObject } from "../core/json.ts";
import { respond } from "../core/respond.ts";
import type { Sim } from "../core/sim.ts";
import { AUDIO_FORMATS, speechDurationMs } from "../media/audio-formats.ts";
import { openaiPreamble } from "./preamble.ts";

const MAX_INPUT_CHARS = 4096;

/** POST /v1/audio/speech — binary audio in the requested `response_format` (default mp3). */
export function speechRoute(sim: Sim): Handler<SimEnv> {
  return (c) => {
    const request = openaiPreamble(c, sim);
    if (request instanceof Response) return request;
    const { body, errors, headers } = request;
    const json = body.json;
    const input = isObject(json) ? asString(json.input) : undefined;
    if (!isObject(json) || input === undefined) {
      return errors.response(400, { message: "Missing required parameter: 'input'." });
    }
    if (!asString(json.voice))
      return errors.response(400, { message: "Missing required parameter: 'voice'." });
    const formatName = asString(json.response_format) ?? "mp3";
    const format = AUDIO_FORMATS[formatName];
    if (!format) {
      return errors.response(400, {
        message: `Invalid value: '${formatName}'. Supported values are: ${Object.keys(AUDIO_FORMATS).join(", ")}.`,
      });
    }
    // OpenAI refuses, rather than clamps, what is out of range.
    if ([...input].length > MAX_INPUT_CHARS) {
      return errors.response(400, {
        message: `Invalid 'input': string too long. Expected a string with maximum length ${MAX_INPUT_CHARS}.`,
      });
    }
    const speed = json.speed === undefined ? 1 : asNumber(json.speed);
    if (speed === undefined || speed < 0.25 || speed > 4) {
      return errors.response(400, {
        message: "Invalid 'speed': expected a number between 0.25 and 4.0.",
      });
    }
    const directives = parseDirectives(input);

    return respond(c, sim, {
      errors,
      headers,
      faultDirective: directives.fault,
      faultKey: input,
      replay: directives.replay,
      produce: () => ({
        kind: "bytes",
        bytes: new Uint8Array(
          format.encode(speechDurationMs(directives.text, speed), directives.text),
        ),
        contentType: format.contentType,
      }),
    });
  };
}
