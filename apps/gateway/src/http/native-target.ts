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

/** Splits the `{model}:{method}` path segment; the model id may itself hold dots and dashes. */
export function parseNativeTarget(target: string): NativeTarget | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    return undefined;
  }
  const at = decoded.lastIndexOf(":");
  if (at <= 0) return undefined;
  const model = decoded.slice(0, at);
  const method = decoded.slice(at + 1);
  if (!Object.hasOwn(NATIVE_METHODS, method)) return undefined;
  return {
    model,
    method: method as NativeMethod,
    stream: NATIVE_METHODS[method as NativeMethod].stream,
  };
}

/** The native method that counts a request's tokens (`{model}:countTokens`), beside the two above. */
export const COUNT_METHOD = "countTokens";

/** The model of a `{model}:countTokens` segment (still escaped); undefined for any other. */
export function parseCountTarget(target: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    return undefined;
  }
  const at = decoded.lastIndexOf(":");
  if (at <= 0 || decoded.slice(at + 1) !== COUNT_METHOD) return undefined;
  return decoded.slice(0, at);
}
