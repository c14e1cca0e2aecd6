import type { Warning } from "@interlingua/core-types";
import { type GatewayError, invalidRequest } from "@interlingua/errors";

/** Lists what a translation dropped or approximated: `path=action`, comma-separated. */
export const WARNINGS_HEADER = "x-interlingua-warnings";
/** `true` turns every would-be drop into a 400 naming the field. */
export const STRICT_HEADER = "x-interlingua-strict";

/**
 * One entry of the header: a codec's `Warning` (`dropped`, `mapped`), or the gateway's own word
 * on its reply (`input_tokens=estimated`: a count the gateway made, not the provider).
 */
export interface HeaderWarning {
  readonly feature: string;
  readonly type: string;
}

/** Header values stay well under common proxy limits (8 KiB per header line). */
const MAX_HEADER_CHARS = 4000;

// A path is written as-is where it can be; a character a header value cannot hold, or that
// would split the list (`,` `=`), is percent-encoded.
const encodePath = (path: string) => path.replace(/[^\x21-\x7e]|[,=%]/gu, percentEncoded);

/**
 * One character percent-encoded. A client's field name may hold a lone surrogate
 * (`{"\ud800": 1}` is valid JSON), which `encodeURIComponent` throws on: it is written as
 * U+FFFD's encoding.
 */
const percentEncoded = (c: string): string =>
  /^[\ud800-\udfff]$/.test(c) ? "%EF%BF%BD" : encodeURIComponent(c);

/**
 * The header value for a list of warnings, each distinct `path=action` once, in order; undefined
 * when there is nothing to say. A list too long for one header ends in `...=truncated`.
 */
export function formatWarningsHeader(warnings: readonly HeaderWarning[]): string | undefined {
  const seen = new Set<string>();
  let out = "";
  for (const warning of warnings) {
    const entry = `${encodePath(warning.feature)}=${warning.type}`;
    if (seen.has(entry)) continue;
    seen.add(entry);
    const next = out === "" ? entry : `${out},${entry}`;
    if (next.length > MAX_HEADER_CHARS) return `${out},...=truncated`;
    out = next;
  }
  return out === "" ? undefined : out;
}

/**
 * A stream's own warnings (what its encoding dropped after the headers went) as the SSE comment
 * that ends it, `: x-interlingua-warnings: path=action,...`; empty when there are none.
 */
export function warningsComment(warnings: readonly Warning[] | undefined): string {
  const value = warnings === undefined ? undefined : formatWarningsHeader(warnings);
  return value === undefined ? "" : `: ${WARNINGS_HEADER}: ${value}\n\n`;
}

/** The response headers carrying `warnings` (none when there are none). */
export function warningsHeaders(warnings: readonly HeaderWarning[]): Record<string, string> {
  const value = formatWarningsHeader(warnings);
  return value === undefined ? {} : { [WARNINGS_HEADER]: value };
}

export const isStrict = (headers: Pick<Headers, "get">): boolean =>
  headers.get(STRICT_HEADER)?.trim().toLowerCase() === "true";

/**
 * In strict mode, the first would-be drop as the 400 the client gets instead, naming the field
 * (a canonical path such as `sampling.topK`, or the client's own field name).
 */
export function strictRefusal(warnings: readonly Warning[]): GatewayError | undefined {
  const dropped = warnings.find((w) => w.type === "dropped");
  if (dropped === undefined) return undefined;
  return invalidRequest(
    `${dropped.feature}: would be dropped (${dropped.message}); refused because ${STRICT_HEADER} is true`,
    dropped.feature,
  );
}

/** The model id the upstream was called with; the reply itself names the client's model. */
export const UPSTREAM_MODEL_HEADER = "x-interlingua-upstream-model";

/** Header values take visible ASCII; any other character is percent-encoded (a lone surrogate as U+FFFD). */
export const upstreamModelHeader = (model: string): Record<string, string> => ({
  [UPSTREAM_MODEL_HEADER]: model.replace(/[^\x20-\x7e]/gu, percentEncoded),
});
