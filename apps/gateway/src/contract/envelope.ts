export const ENVELOPE_HEADER = "x-interlingua-envelope";

export type EnvelopeSetting = "spec" | "bare";

/**
 * Whether a successful non-stream body is wrapped. The request header overrides the server
 * setting in either direction; endpoints that are bare by the API reference (messages) are never wrapped.
 */
export function shouldWrap(
  endpointWrapped: boolean,
  setting: EnvelopeSetting,
  header: string | null,
): boolean {
  if (!endpointWrapped) return false;
  const chosen = header?.trim().toLowerCase();
  const effective = chosen === "bare" || chosen === "spec" ? chosen : setting;
  return effective === "spec";
}

/** Wraps an already-serialised JSON body without re-parsing it (the fast path keeps bytes as sent). */
export function wrapJsonText(json: string): string {
  return `{"code":200,"data":${json}}`;
}
