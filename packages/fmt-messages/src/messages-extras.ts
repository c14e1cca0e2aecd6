import type { Extras } from "@interlingua/core-types";

/** `extras` key of this format's unknown top-level request fields, written back on render. */
export const MESSAGES_EXTRAS = "messages";

/**
 * `extras` key of wire-shape hints that are not fields: `{system: "string"}` records that the
 * system prompt arrived as a plain string, so a same-format round trip renders it as one again;
 * `{effort: "sent"}` that the client itself sent `output_config.effort`, so it is passed on to
 * any model, never withheld by the effort table (messages-model-defaults.ts).
 */
export const MESSAGES_SHAPE_EXTRAS = "messages:shape";

export function messagesExtras(extras: Extras | undefined): Record<string, unknown> | undefined {
  return extras?.[MESSAGES_EXTRAS];
}

export function systemWasString(extras: Extras | undefined): boolean {
  return extras?.[MESSAGES_SHAPE_EXTRAS]?.["system"] === "string";
}

export function effortWasSent(extras: Extras | undefined): boolean {
  return extras?.[MESSAGES_SHAPE_EXTRAS]?.["effort"] === "sent";
}
