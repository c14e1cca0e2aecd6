// Apart from content-part.ts, which holds zod schemas: the codecs call these helpers, and a bundler
// drops a module none of whose exports is used, but never a top-level schema call in one it keeps.
import type { FilePart } from "./content-part.js";

/**
 * For formats without Anthropic's document fields: reports a file part's `context` and
 * `citations` as dropped (`<feature>.context`, `<feature>.citations`), so strict mode refuses.
 */
export function warnDocumentFields(
  part: FilePart,
  feature: string,
  warn: ((warning: { type: "dropped"; feature: string; message: string }) => void) | undefined,
): void {
  if (part.context !== undefined) {
    warn?.({ type: "dropped", feature: `${feature}.context`, message: "files carry no context" });
  }
  if (part.citations !== undefined) {
    warn?.({
      type: "dropped",
      feature: `${feature}.citations`,
      message: "files carry no citation setting",
    });
  }
}
