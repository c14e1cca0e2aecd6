/**
 * Where an endpoint group accepts the API key (docs/api-reference.md, Authentication), in the order they are
 * read. `x-vendor-api-key` is the neutral spelling of `x-goog-api-key`; both are accepted.
 */
export type CredentialSource =
  | "bearer"
  | "x-api-key"
  | "x-goog-api-key"
  | "x-vendor-api-key"
  | "query-key";

export const CREDENTIAL_SOURCES = {
  standard: ["bearer"],
  messages: ["bearer", "x-api-key"],
  native: ["bearer", "x-goog-api-key", "x-vendor-api-key", "query-key"],
  // The model list: every client's SDK lists models with its own credential.
  any: ["bearer", "x-api-key", "x-goog-api-key", "x-vendor-api-key", "query-key"],
} as const satisfies Record<string, readonly CredentialSource[]>;

export type CredentialGroup = keyof typeof CREDENTIAL_SOURCES;

/** What reading a credential reads of the request headers (a web `Headers` is one). */
export type RequestHeaders = Pick<Headers, "get">;

const readers: Record<CredentialSource, (headers: RequestHeaders, url: URL) => string | null> = {
  bearer: (headers) => {
    const value = headers.get("authorization");
    const match = value === null ? null : /^Bearer[ \t]+(.+)$/i.exec(value.trim());
    return match?.[1]?.trim() ?? null;
  },
  "x-api-key": (headers) => headers.get("x-api-key"),
  "x-goog-api-key": (headers) => headers.get("x-goog-api-key"),
  "x-vendor-api-key": (headers) => headers.get("x-vendor-api-key"),
  "query-key": (_headers, url) => url.searchParams.get("key"),
};

/** The first non-empty key found among the group's sources, or undefined. */
export function readCredential(
  group: CredentialGroup,
  headers: RequestHeaders,
  url: URL,
): string | undefined {
  for (const source of CREDENTIAL_SOURCES[group]) {
    const value = readers[source](headers, url)?.trim();
    if (value) return value;
  }
  return undefined;
}
