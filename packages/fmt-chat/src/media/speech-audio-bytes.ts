// Whether a 2xx speech reply is audio of the format asked for, from its first bytes and its
// media type: an HTML page or a JSON document (a proxy's, or one echoing the request and its
// key) must never reach the client as audio, nor be charged.

const ascii = (bytes: Uint8Array, at: number, text: string): boolean => {
  // Only the bytes at hand are compared: a first chunk shorter than the signature is consistent.
  for (let i = 0; i < text.length && at + i < bytes.length; i++) {
    if (bytes[at + i] !== text.charCodeAt(i)) return false;
  }
  return bytes.length > at || at === 0;
};

/** Each format's signature; raw pcm has none (only a document's start refutes it). */
const SIGNATURES: Readonly<Record<string, (bytes: Uint8Array) => boolean>> = {
  wav: (b) => ascii(b, 0, "RIFF") && (b.length < 12 || ascii(b, 8, "WAVE")),
  opus: (b) => ascii(b, 0, "OggS"),
  flac: (b) => ascii(b, 0, "fLaC"),
  // ADTS frames (sync word 0xFFF, layer 0), or an ADIF header.
  aac: (b) => (b[0] === 0xff && ((b[1] ?? 0xf0) & 0xf6) === 0xf0) || ascii(b, 0, "ADIF"),
  // An ID3 tag, or an MPEG audio frame's sync.
  mp3: (b) => ascii(b, 0, "ID3") || (b[0] === 0xff && ((b[1] ?? 0xe0) & 0xe0) === 0xe0),
  pcm: (b) => !looksLikeDocument(b),
};

/** Media types no audio comes as. */
const DOCUMENT_TYPE = /^\s*(text\/|application\/(json|xml|xhtml\+xml|problem\+json)\b)/i;

/** Starts like markup or JSON (after any whitespace or a UTF-8 byte order mark). */
function looksLikeDocument(bytes: Uint8Array): boolean {
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (at < bytes.length && (bytes[at] === 0x20 || (bytes[at]! >= 0x09 && bytes[at]! <= 0x0d))) {
    at++;
  }
  const first = bytes[at];
  return first === 0x3c /* < */ || first === 0x7b /* { */ || first === 0x5b /* [ */;
}

/**
 * Whether a speech reply's first bytes (and its `content-type`, when given) are audio of
 * `format`. Unknown formats pass unless the reply is plainly a document.
 */
export function isSpeechAudio(format: string, first: Uint8Array, contentType?: string): boolean {
  if (first.length === 0) return false;
  if (contentType !== undefined && DOCUMENT_TYPE.test(contentType)) return false;
  const signature = SIGNATURES[format];
  return signature === undefined ? !looksLikeDocument(first) : signature(first);
}
