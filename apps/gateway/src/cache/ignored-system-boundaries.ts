import type { Warning } from "@interlingua/core-types";

const SYSTEM_FIELDS = ["systemInstruction", "system_instruction"] as const;

/**
 * SPEC.md rule 1: a boundary never sits inside native `systemInstruction`. The native codec keeps
 * no `cache_control` there, so the cache analysis never sees one; it is reported from the
 * client's body instead, in the analysis' own terms, whatever the upstream (rule 8 then keeps it
 * from being forwarded).
 */
export function ignoredSystemBoundaries(wire: Record<string, unknown>): Warning[] {
  const warnings: Warning[] = [];
  for (const field of SYSTEM_FIELDS) {
    const parts = (wire[field] as { parts?: unknown } | undefined)?.parts;
    if (!Array.isArray(parts)) continue;
    parts.forEach((part, i) => {
      if (typeof part === "object" && part !== null && "cache_control" in part) {
        warnings.push({
          type: "dropped",
          feature: `system[${i}].cacheControl`,
          message: `${field}.parts[${i}].cache_control: a cache boundary never sits inside systemInstruction; it was ignored`,
        });
      }
    });
  }
  return warnings;
}
