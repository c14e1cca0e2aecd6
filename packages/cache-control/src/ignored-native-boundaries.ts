import type { Warning } from "@interlingua/core-types";

const SYSTEM_FIELDS = ["systemInstruction", "system_instruction"] as const;
const DECLARATION_FIELDS = ["functionDeclarations", "function_declarations"] as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const dropped = (feature: string, message: string): Warning => ({
  type: "dropped",
  feature,
  message,
});

/**
 * docs/api-reference.md rule 1: a native boundary sits on a part of `contents`, never inside
 * `systemInstruction`, and a tool is no part. The native codec keeps no `cache_control` in those
 * places, so the cache analysis never sees one; each is reported from the client's body instead,
 * whatever the upstream (rule 8 then keeps it from being forwarded).
 */
export function ignoredNativeBoundaries(wire: Record<string, unknown>): Warning[] {
  const warnings: Warning[] = [];
  for (const field of SYSTEM_FIELDS) {
    const parts = (wire[field] as { parts?: unknown } | undefined)?.parts;
    if (!Array.isArray(parts)) continue;
    parts.forEach((part, i) => {
      if (isRecord(part) && "cache_control" in part) {
        warnings.push(
          dropped(
            `system[${i}].cacheControl`,
            `${field}.parts[${i}].cache_control: a cache boundary never sits inside systemInstruction; it was ignored`,
          ),
        );
      }
    });
  }
  const tools = wire["tools"];
  if (!Array.isArray(tools)) return warnings;
  tools.forEach((tool, t) => {
    if (!isRecord(tool)) return;
    if ("cache_control" in tool) {
      warnings.push(
        dropped(
          `tools[${t}].cacheControl`,
          `tools[${t}].cache_control: a cache boundary sits on a part of contents, not on a tool; it was ignored`,
        ),
      );
    }
    for (const field of DECLARATION_FIELDS) {
      const declarations = tool[field];
      if (!Array.isArray(declarations)) continue;
      declarations.forEach((declaration, d) => {
        if (isRecord(declaration) && "cache_control" in declaration) {
          warnings.push(
            dropped(
              `tools[${t}].cacheControl`,
              `tools[${t}].${field}[${d}].cache_control: a cache boundary sits on a part of contents, not on a function; it was ignored`,
            ),
          );
        }
      });
    }
  });
  return warnings;
}
