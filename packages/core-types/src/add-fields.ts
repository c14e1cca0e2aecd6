/**
 * Copies onto `target` each own field of `source` that `target` does not own and `skip` does not
 * reject: how the codecs write unknown wire fields back. Never `__proto__`, which `JSON.parse`
 * makes an own field but assignment would turn into `target`'s prototype (zod drops it on parse,
 * so normal forms leave it out too); a field named `constructor` or `toString` is copied like any
 * other (`key in target` would find Object's).
 */
export function addFields(
  target: Record<string, unknown>,
  source: Record<string, unknown>,
  skip?: (key: string) => boolean,
): void {
  for (const key of Object.keys(source)) {
    if (key === "__proto__" || Object.hasOwn(target, key) || skip?.(key)) continue;
    target[key] = source[key];
  }
}
