import type * as z from "zod/v4/core";

type AnySchema = z.$ZodType;

/** Through optional, nullable, default and pipe wrappers to the schema that holds the shape. */
function unwrap(schema: AnySchema): AnySchema {
  let at = schema as unknown as { def: Record<string, unknown> };
  for (;;) {
    const def = at.def;
    if (def.innerType !== undefined) at = def.innerType as typeof at;
    else if (def.type === "pipe") at = def.in as typeof at;
    else return at as unknown as AnySchema;
  }
}

/**
 * The field paths of an object schema, for tests that prove each is accounted for: top-level
 * keys, and `parent.child` for the children of the keys named in `descend` (config objects such
 * as Gemini's generationConfig). Wrappers (optional, nullable, pipes) are looked through.
 */
export function zodObjectFieldPaths(
  schema: AnySchema,
  descend: ReadonlySet<string> = new Set(),
): string[] {
  const shape = (unwrap(schema) as unknown as { shape?: Record<string, AnySchema> }).shape;
  if (shape === undefined) return [];
  const paths: string[] = [];
  for (const key of Object.keys(shape)) {
    paths.push(key);
    const child = shape[key];
    if (child === undefined || !descend.has(key)) continue;
    const inner = (unwrap(child) as unknown as { shape?: Record<string, AnySchema> }).shape;
    for (const sub of Object.keys(inner ?? {})) paths.push(`${key}.${sub}`);
  }
  return paths;
}
