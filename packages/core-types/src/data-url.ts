/**
 * A base64 data URL, `data:<media type>;base64,<data>` (RFC 2397). The media type is kept as
 * written, parameters included (`text/plain;charset=utf-8`), so formatting gives the URL back.
 */
export interface DataUrl {
  mediaType: string;
  data: string;
}

// The scheme and the `;base64` marker are case-insensitive (RFC 2397); the last `;base64,`
// before the first comma ends the media type.
const dataUrlPattern = /^data:([^,]*?);base64,(.*)$/is;

/** The media type and data of a base64 data URL, or undefined for any other string. */
export function parseDataUrl(value: string): DataUrl | undefined {
  // Most values are http(s) URLs: one character code rules them out before the regex runs.
  if (value.length < 5 || (value.charCodeAt(0) | 0x20) !== 0x64 /* d */) return undefined;
  const match = dataUrlPattern.exec(value);
  if (match === null) return undefined;
  return { mediaType: match[1] ?? "", data: match[2] ?? "" };
}

/** The data URL of a media type and base64 data: `parseDataUrl`'s inverse. */
export function formatDataUrl(source: DataUrl): string {
  return `data:${source.mediaType};base64,${source.data}`;
}

/** Extensions of the media types OpenAI's file inputs name; others take their subtype. */
const FILE_EXTENSIONS: Readonly<Record<string, string>> = {
  "application/pdf": "pdf",
  "text/plain": "txt",
  "text/markdown": "md",
  "audio/mpeg": "mp3",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
};

/**
 * A name for inline file data that came without one (a Gemini inlineData part, a messages
 * document without a title): OpenAI refuses `file_data` with no `filename` ("Missing required
 * parameter"), and reads the type from its extension. `file.pdf`, `file.txt`, `file.wav`...
 */
export function placeholderFileName(mediaType: string): string {
  const type = (mediaType.split(";")[0] ?? "").trim().toLowerCase();
  const extension =
    FILE_EXTENSIONS[type] ?? (type.split("/")[1] ?? "").replace(/^x-/, "").replace(/\W+/g, "");
  return extension === "" ? "file" : `file.${extension}`;
}
