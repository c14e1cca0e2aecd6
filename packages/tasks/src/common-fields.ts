import { FIELD_REQUIRED } from "@interlingua/errors";
import * as z from "zod/mini";
import { type Language, normalizeLanguage } from "./language.js";

/** `webhook` and `language`, accepted at the top level of asynchronous submissions. */
export const asyncFieldsShape = {
  webhook: z.exactOptional(z.string()),
  language: z.exactOptional(z.string()),
};

/**
 * The error of a model enum: absent reads `field required` like every other endpoint's, a wrong
 * value lists the ids (`must be one of …`, then `note`).
 */
export const oneOfModels =
  (models: readonly string[], note = "") =>
  (issue: { input?: unknown }) =>
    issue.input === undefined ? FIELD_REQUIRED : `must be one of ${models.join(", ")}${note}`;

export const nonBlank = (what = "must not be empty") =>
  z.string().check(z.refine((s) => s.trim().length > 0, what));

/**
 * The optional fields as a request carries them: a blank webhook is no webhook, and an unsupported
 * language is dropped (the API reference: it never fails the submission; the original message is kept).
 */
export function asyncFields(wire: { webhook?: string; language?: string }): {
  webhook?: string;
  language?: Language;
} {
  const out: { webhook?: string; language?: Language } = {};
  const webhook = wire.webhook?.trim();
  if (webhook) out.webhook = webhook;
  const language = normalizeLanguage(wire.language);
  if (language) out.language = language;
  return out;
}
