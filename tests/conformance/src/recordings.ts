import { readdirSync, readFileSync } from "node:fs";

/** The recorded upstream streams of the repository's fixtures/, by folder, and the codec each speaks. */
export const fixturesDir = new URL("../../../fixtures/", import.meta.url);

export const recordingFolders = {
  anthropic: "messages",
  "openai-chat": "chat",
  gemini: "native",
  "openai-responses": "responses",
} as const;
export type RecordingFolder = keyof typeof recordingFolders;

/**
 * How each provider frames one recorded line as SSE (fixtures/README.md): Anthropic names the event
 * after the payload's type; OpenAI sends bare `data:` frames ending with `[DONE]`; Gemini (`alt=sse`)
 * uses CRLF. A line that is not JSON (the parallel-tool-call-wrapper recording has two truncated
 * ones) has no type to name, so it goes out as a bare data frame, as the provider sent it.
 */
const framing: Record<RecordingFolder, { frame(line: string): string; end: string }> = {
  anthropic: { frame: (line) => `event: ${typeOf(line)}\ndata: ${line}\n\n`, end: "" },
  "openai-chat": { frame: (line) => `data: ${line}\n\n`, end: "data: [DONE]\n\n" },
  "openai-responses": { frame: (line) => `data: ${line}\n\n`, end: "data: [DONE]\n\n" },
  gemini: { frame: (line) => `data: ${line}\r\n\r\n`, end: "" },
};

function typeOf(line: string): string {
  try {
    const type = (JSON.parse(line) as { type?: unknown }).type;
    return typeof type === "string" ? type : "message";
  } catch {
    return "message";
  }
}

export interface Recording {
  folder: RecordingFolder;
  file: string;
  /** The recording as the provider's SSE bytes would read. */
  sse: string;
}

export function recordings(): Recording[] {
  return (Object.keys(recordingFolders) as RecordingFolder[]).flatMap((folder) =>
    readdirSync(new URL(`${folder}/`, fixturesDir))
      .filter((file) => file.endsWith(".chunks.txt"))
      .sort()
      .map((file) => {
        const lines = readFileSync(new URL(`${folder}/${file}`, fixturesDir), "utf8")
          .split("\n")
          .filter((line) => line.trim() !== "");
        const { frame, end } = framing[folder];
        return { folder, file, sse: lines.map(frame).join("") + end };
      }),
  );
}
