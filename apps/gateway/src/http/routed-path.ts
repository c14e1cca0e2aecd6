/** A path the URL parser would leave as it is: no escape, no space, nothing to normalise. */
const PLAIN_PATH = /^\/[!#$&-;=?-[\]_a-z~]*$/;
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;
const ABSOLUTE = /^https?:\/\//i;

/**
 * The path a request is routed by, read from its request target as Hono routes it: dot segments
 * resolved, percent-escapes decoded except those of reserved characters and of `%` itself
 * (`%2F` and `%25` stay, so a path parameter may hold them, decoded once by its reader). An
 * absolute-form target (`POST http://host/path`) routes by its path. Undefined for a target the
 * server refuses (a backslash in the path, an unparsable URL).
 */
export function routedPath(target: string): string | undefined {
  const query = target.indexOf("?");
  let path = query === -1 ? target : target.slice(0, query);
  if (path.includes("\\")) return undefined;
  if (path[0] === "/") {
    if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path)) return path;
    path = parsedPath(path, "http://gateway.invalid");
  } else if (ABSOLUTE.test(path)) {
    path = parsedPath(target, undefined);
  } else {
    return undefined;
  }
  if (path === "") return undefined;
  if (!path.includes("%")) return path;
  try {
    // `%25` stays escaped, so that the one decode of a parameter cannot read a `%` it made.
    return decodeURI(path.replaceAll("%25", "%2525"));
  } catch {
    return path;
  }
}

/** The URL parser's path of `target` ("" when it cannot parse it: no route matches ""). */
function parsedPath(target: string, base: string | undefined): string {
  return URL.canParse(target, base) ? new URL(target, base).pathname : "";
}
