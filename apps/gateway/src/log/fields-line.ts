import { type Logger, pino } from "pino";

/**
 * An info line whose fields are serialised in one native `JSON.stringify` and handed to pino as
 * bindings (the pre-serialised `,"name":value` text a child logger carries), so pino writes the
 * same line (level, time, bindings, fields, msg; hooks, redaction nets and destination alike)
 * without its per-field loop: a third of a request line's CPU, the largest part (issue 30).
 *
 * Fields pino would write differently go its own way: a name it serialises or redacts itself
 * (`err`, the redacted paths' first names), a value `JSON.stringify` cannot take (a BigInt, a
 * cycle), and loggers that reshape lines (mixin, nestedKey, a log formatter or logMethod hook,
 * a destination reading each line's object). One difference is left: a lone surrogate in a
 * top-level name or string of at most 100 characters is escaped (`\udc00`); pino writes it raw.
 */
const {
  chindingsSym,
  errorKeySym,
  formattersSym,
  hooksSym,
  mixinSym,
  needsMetadataGsym,
  nestedKeySym,
  serializersSym,
  streamSym,
  stringifiersSym,
  wildcardFirstSym,
} = pino.symbols;

type Fields = Record<string, unknown>;
type Internals = Record<symbol, unknown>;

interface Shortcut {
  /** The logger with these fields' text as its bindings; pino reads them through `this`. */
  readonly carrier: Internals & Logger;
  /** Top-level names pino serialises or redacts on its own. */
  readonly ownNames: readonly string[];
}

const shortcuts = new WeakMap<Logger, Shortcut | null>();

/** How `logger` may take the shortcut, or null when its lines are reshaped. */
function shortcutOf(logger: Logger): Shortcut | null {
  let shortcut = shortcuts.get(logger);
  if (shortcut !== undefined) return shortcut;
  const internals = logger as unknown as Internals;
  const formatters = internals[formattersSym] as { log?: unknown } | undefined;
  const hooks = internals[hooksSym] as { logMethod?: unknown } | undefined;
  const stream = internals[streamSym] as Internals | undefined;
  const stringifiers = (internals[stringifiersSym] ?? {}) as Internals;
  // Tested for as pino tests them: by truth (an unset nestedKey is null).
  const reshaped = Boolean(
    internals[mixinSym] ||
      internals[nestedKeySym] ||
      formatters?.log ||
      hooks?.logMethod ||
      stream?.[needsMetadataGsym] ||
      stringifiers[wildcardFirstSym],
  );
  shortcut = reshaped
    ? null
    : {
        carrier: Object.create(logger) as Internals & Logger,
        ownNames: [
          ...new Set([
            String(internals[errorKeySym] ?? "err"),
            ...Object.keys((internals[serializersSym] ?? {}) as object),
            ...Object.keys(stringifiers),
          ]),
        ],
      };
  shortcuts.set(logger, shortcut);
  return shortcut;
}

/** Whether `logger`'s info lines take the shortcut (a changed pino option may turn it off). */
export const takesShortcut = (logger: Logger): boolean => shortcutOf(logger) !== null;

/** Writes `logger.info(fields, message)`'s line; the caller has checked that info is enabled. */
export function writeInfoLine(logger: Logger, fields: Fields, message: string): void {
  const shortcut = shortcutOf(logger);
  const json = shortcut === null ? undefined : serialised(fields, shortcut.ownNames);
  if (shortcut === null || json === undefined) {
    logger.info(fields, message);
    return;
  }
  const bindings = (logger as unknown as Internals)[chindingsSym] as string;
  shortcut.carrier[chindingsSym] = json === "{}" ? bindings : `${bindings},${json.slice(1, -1)}`;
  shortcut.carrier.info(message);
}

/** The fields as one JSON object, or undefined when pino would write them otherwise. */
function serialised(fields: Fields, ownNames: readonly string[]): string | undefined {
  for (const name of ownNames) if (fields[name] !== undefined) return undefined;
  if (typeof fields["toJSON"] === "function") return undefined;
  try {
    return JSON.stringify(fields);
  } catch {
    return undefined;
  }
}
