/** `data:<media type>;base64,<data>`; the media type may carry parameters. */
const dataUri = /^data:([^,]*?);base64,(.*)$/is;

export interface Base64Data {
  mediaType: string;
  data: string;
}

/** The media type and data of a base64 data URI, or undefined if `value` is not one. */
export function parseDataUri(value: string): Base64Data | undefined {
  if (value.length < 5 || (value.charCodeAt(0) | 0x20) !== 0x64 /* d */) return undefined;
  const match = dataUri.exec(value);
  if (!match) return undefined;
  return { mediaType: match[1] ?? "", data: match[2] ?? "" };
}

export function formatDataUri(source: Base64Data): string {
  return `data:${source.mediaType};base64,${source.data}`;
}

/** Image URLs chat accepts: http(s) links and data URIs. */
export function isHttpUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}
