// RFC 7240 `Prefer`: comma-separated preferences, each `token[=value]` with optional `;`
// parameters that these preferences do not use. Names are case-insensitive; a value may be quoted.

export interface Preferences {
  /** `wait=N`: the client will wait N seconds for a synchronous answer. */
  readonly wait?: number;
  /** `respond-async`: the client wants the asynchronous acknowledgement. */
  readonly respondAsync: boolean;
}

export function parsePrefer(header: string | null | undefined): Preferences {
  let wait: number | undefined;
  let respondAsync = false;
  for (const preference of (header ?? "").split(",")) {
    const [head = ""] = preference.split(";");
    const at = head.indexOf("=");
    const name = (at < 0 ? head : head.slice(0, at)).trim().toLowerCase();
    const value =
      at < 0
        ? ""
        : head
            .slice(at + 1)
            .trim()
            .replace(/^"(.*)"$/, "$1");
    if (name === "respond-async") respondAsync = true;
    // A malformed wait is ignored, as RFC 7240 asks of preferences a server cannot read.
    if (name === "wait" && /^\d{1,9}$/.test(value)) wait ??= Number(value);
  }
  return wait === undefined ? { respondAsync } : { wait, respondAsync };
}
