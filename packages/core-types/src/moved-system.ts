// Apart from request.ts, which holds zod schemas: the codecs call these helpers, and a bundler
// drops a module none of whose exports is used, but never a top-level schema call in one it keeps.
import type { Request } from "./request.js";
import type { Warning } from "./warning.js";

/**
 * For formats that hold system text only before the turns: reports each system part that stood
 * later (`system[i].position`, dropped, so strict mode refuses it) — it is sent at the front.
 */
export function warnMovedSystem(
  request: Pick<Request, "systemAt">,
  onWarning: ((warning: Warning) => void) | undefined,
): void {
  request.systemAt?.forEach((at, i) => {
    if (at === 0) return;
    onWarning?.({
      type: "dropped",
      feature: `system[${i}].position`,
      message: `a system message after ${at} turn(s) is sent before the first turn`,
    });
  });
}
