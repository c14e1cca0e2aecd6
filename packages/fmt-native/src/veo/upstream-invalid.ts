import { badGateway, formatFieldPath, type GatewayError } from "@interlingua/errors";
import type * as z from "zod/v4/core";

/** An upstream reply that fails its schema: 502 naming the field, never a raw ZodError. */
export function upstreamInvalid(error: z.$ZodError, what: string): GatewayError {
  const issue = error.issues[0];
  const path = issue === undefined ? "" : formatFieldPath(issue.path);
  const detail = issue === undefined ? "invalid" : issue.message;
  return badGateway(
    `Upstream sent an invalid ${what}${path === "" ? "" : ` at ${path}`}: ${detail}`,
  );
}

/** Cuts a string the upstream controls to at most `max` characters. */
export const capText = (text: string, max: number): string =>
  text.length <= max ? text : text.slice(0, max);
