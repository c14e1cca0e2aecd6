/** The two generate-content methods and whether each streams. */
export const NATIVE_METHODS = {
  generateContent: { stream: false },
  streamGenerateContent: { stream: true },
} as const;

export type NativeMethod = keyof typeof NATIVE_METHODS;

/** Splits the `{model}:{method}` path segment; the model id may itself hold dots and dashes. */
export function parseNativeTarget(
  target: string,
): { model: string; method: NativeMethod; stream: boolean } | undefined {
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
