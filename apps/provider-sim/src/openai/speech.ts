import type { Handler } from "hono";
import { parseDirectives } from "../core/directives.ts";
import type { SimEnv } from "../core/env.ts";
import { asNumber, asString, isObject } from "../core/json.ts";
import { respond } from "../core/respond.ts";
import type { Sim } from "../core/sim.ts";
import { AUDIO_FORMATS, speechDurationMs } from "../media/audio-formats.ts";
import { openaiPreamble } from "./preamble.ts";

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
    const directives = parseDirectives(input);
    const speed = Math.min(4, Math.max(0.25, asNumber(json.speed) ?? 1));

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
