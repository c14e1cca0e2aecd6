// Light readers for untrusted JSON: the simulator checks only the few fields it acts on.

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function asObject(value: unknown): JsonObject | undefined {
  return isObject(value) ? value : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function asNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Gemini accepts both the proto field name (snake_case) and its JSON name (camelCase). */
export function field(object: JsonObject, camel: string, snake: string): unknown {
  return object[camel] ?? object[snake];
}
