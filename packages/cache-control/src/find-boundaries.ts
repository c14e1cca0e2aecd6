import type { CacheBoundary, Part, Request } from "@interlingua/core-types";

/** A boundary as found, before validation: the control is read as untrusted data. */
export interface FoundBoundary {
  boundary: CacheBoundary;
  control: { type?: unknown; ttl?: unknown };
}

const controlOf = (part: object): FoundBoundary["control"] | undefined =>
  "cacheControl" in part && part.cacheControl !== undefined
    ? (part.cacheControl as FoundBoundary["control"])
    : undefined;

/**
 * Every `cacheControl` on system text, message parts and the blocks inside tool results, in the
 * order the client wrote them (system first: chat hoists system messages to the front).
 */
export function findBoundaries(request: Request): FoundBoundary[] {
  const found: FoundBoundary[] = [];
  request.system.forEach((part, p) => {
    const control = controlOf(part);
    if (control) found.push({ boundary: { area: "system", part: p }, control });
  });
  request.messages.forEach((message, m) => {
    message.parts.forEach((part: Part, p) => {
      if (part.type === "tool-result") {
        part.content.forEach((block, c) => {
          const control = controlOf(block);
          if (control) {
            found.push({
              boundary: { area: "messages", message: m, part: p, content: c },
              control,
            });
          }
        });
      }
      const control = controlOf(part);
      if (control) found.push({ boundary: { area: "messages", message: m, part: p }, control });
    });
  });
  return found;
}
