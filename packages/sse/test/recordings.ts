import { readdirSync, readFileSync } from "node:fs";
import {
  fixtureFolderProtocols,
  type RecordingProtocol,
  recordingLines,
} from "../src/frame-recording.js";

/** The recorded upstream streams, in the repository (fixtures/README.md). */
export const fixturesRoot = new URL("../../../fixtures/", import.meta.url);

export type Recording = { name: string; protocol: RecordingProtocol; lines: string[] };

export function recordings(): Recording[] {
  return Object.entries(fixtureFolderProtocols).flatMap(([folder, protocol]) =>
    readdirSync(new URL(`${folder}/`, fixturesRoot))
      .filter((file) => file.endsWith(".chunks.txt"))
      .sort()
      .map((file) => ({
        name: `${folder}/${file}`,
        protocol,
        lines: recordingLines(readFileSync(new URL(`${folder}/${file}`, fixturesRoot), "utf8")),
      })),
  );
}
