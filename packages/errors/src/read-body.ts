/**
 * An error body as it may reach a parser: already-parsed JSON, the raw text, or the raw bytes.
 * Text that is not JSON (an HTML page from a proxy, "upstream connect error") stays text.
 */
export type ReadBody = { kind: "json"; json: unknown } | { kind: "text"; text: string };

export const readBody = (body: unknown): ReadBody => {
  const text =
    typeof body === "string"
      ? body
      : body instanceof Uint8Array || body instanceof ArrayBuffer
        ? new TextDecoder().decode(body)
        : undefined;
  if (text === undefined) return { kind: "json", json: body };
  try {
    return { kind: "json", json: JSON.parse(text) };
  } catch {
    return { kind: "text", text };
  }
};

/** The JSON value of a body, or undefined when it was not JSON. */
export const bodyJson = (body: unknown): unknown => {
  const read = readBody(body);
  return read.kind === "json" ? read.json : undefined;
};
