/** The two generate-content methods and whether each streams. */
export const NATIVE_METHODS = {
  generateContent: { stream: false },
  streamGenerateContent: { stream: true },
} as const;

export type NativeMethod = keyof typeof NATIVE_METHODS;

/** What a native route's path says: the model, the method and whether it streams. */
export interface NativeTarget {
  readonly model: string;
  readonly method: NativeMethod;
  readonly stream: boolean;
}

/** A `{model}:{method}` path segment, unescaped and split; the model id may hold dots and dashes. */
function splitTarget(target: string): { model: string; method: string } | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    return undefined;
  }
  const at = decoded.lastIndexOf(":");
  if (at <= 0) return undefined;
  return { model: decoded.slice(0, at), method: decoded.slice(at + 1) };
}

/** Splits the `{model}:{method}` path segment of a generation. */
export function parseNativeTarget(target: string): NativeTarget | undefined {
  const split = splitTarget(target);
  if (split === undefined || !Object.hasOwn(NATIVE_METHODS, split.method)) return undefined;
  const method = split.method as NativeMethod;
  return { model: split.model, method, stream: NATIVE_METHODS[method].stream };
}

/** The native method that counts a request's tokens (`{model}:countTokens`), beside the two above. */
export const COUNT_METHOD = "countTokens";

/** The model of a `{model}:countTokens` segment; undefined for any other. */
export function parseCountTarget(target: string): string | undefined {
  const split = splitTarget(target);
  return split?.method === COUNT_METHOD ? split.model : undefined;
}
