import { type DataUrl, formatDataUrl, parseDataUrl } from "@interlingua/core-types";

// Chat's names for the one data-URL parser of @interlingua/core-types, kept while the package's
// main entry still exports them.
export type Base64Data = DataUrl;
export const parseDataUri = parseDataUrl;
export const formatDataUri = formatDataUrl;

/** Image URLs chat accepts: http(s) links and data URIs. */
export function isHttpUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}
