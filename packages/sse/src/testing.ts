/**
 * Helpers for tests and benchmarks here and in the packages that replay recorded streams:
 * SSE framing of the shared fixtures, and byte-splitting stream utilities. Pure, like the rest.
 */
export { readAll, readableOf, splitBytes } from "./byte-chunks.js";
export {
  fixtureFolderProtocols,
  frameRecording,
  type RecordingProtocol,
  recordingEvents,
  recordingLines,
} from "./frame-recording.js";
