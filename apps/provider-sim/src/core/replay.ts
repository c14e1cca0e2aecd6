import { readFile } from "node:fs/promises";
import { resolve, sep } from "node:path";
import { type Frame, type Framing, JSON_ARRAY, SSE, SSE_CRLF } from "./framing.ts";

// `[[replay:PATH]]`: a recording from the repository's fixtures/ answered verbatim. A `.chunks.txt` file holds
// one event payload per line and is framed the way its folder's protocol frames events; a `.json`
// file is a whole response body.

export type Replay =
  | { kind: "stream"; frames: Frame[]; framing: Framing }
  | { kind: "body"; text: string; status: number }
  | { kind: "missing"; message: string };

type FolderFraming = (lines: string[], url: URL) => { frames: Frame[]; framing: Framing };

/** The event name is the payload's leading `type`; read without parsing, as some recordings are not valid JSON. */
const typed = (line: string): Frame => {
  const type = /^\{\s*"type"\s*:\s*"([^"]+)"/.exec(line)?.[1];
  return type ? { event: type, data: line } : { data: line };
};

const FOLDERS: Record<string, FolderFraming> = {
  anthropic: (lines) => ({ frames: lines.map(typed), framing: SSE }),
  "openai-responses": (lines) => ({ frames: lines.map(typed), framing: SSE }),
  "openai-chat": (lines) => ({
    frames: [...lines.map((data) => ({ data })), { data: "[DONE]" }],
    framing: SSE,
  }),
  gemini: (lines, url) => ({
    frames: lines.map((data) => ({ data })),
    framing:
      url.pathname.endsWith(":streamGenerateContent") && url.searchParams.get("alt") !== "sse"
        ? JSON_ARRAY
        : SSE_CRLF,
  }),
};

/** A recorded error body is answered with the status it was recorded under. */
const ERROR_STATUS: Record<string, number> = {
  insufficient_quota: 429,
  rate_limit_exceeded: 429,
  invalid_api_key: 401,
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

function statusOf(text: string): number {
  try {
    const error = (JSON.parse(text) as { error?: { code?: unknown; type?: unknown } }).error;
    if (!error) return 200;
    if (typeof error.code === "number") return error.code;
    return ERROR_STATUS[String(error.code)] ?? ERROR_STATUS[String(error.type)] ?? 500;
  } catch {
    return 200;
  }
}

const cache = new Map<string, string>();

async function readFixture(path: string): Promise<string | undefined> {
  const cached = cache.get(path);
  if (cached !== undefined) return cached;
  try {
    const text = await readFile(path, "utf8");
    cache.set(path, text);
    return text;
  } catch {
    return undefined;
  }
}

export async function loadReplay(fixturesDir: string, relative: string, url: URL): Promise<Replay> {
  const root = resolve(fixturesDir);
  const path = resolve(root, relative);
  if (!path.startsWith(root + sep)) {
    return { kind: "missing", message: `replay path escapes the fixtures folder: ${relative}` };
  }
  const text = await readFixture(path);
  if (text === undefined) return { kind: "missing", message: `no such fixture: ${relative}` };
  if (!path.endsWith(".chunks.txt")) return { kind: "body", text, status: statusOf(text) };
  const folder = relative.split(/[\\/]/)[0] ?? "";
  const framingOf = FOLDERS[folder];
  if (!framingOf) return { kind: "missing", message: `no framing known for folder "${folder}"` };
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  return { kind: "stream", ...framingOf(lines, url) };
}
