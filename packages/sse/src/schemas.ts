// The zod schema of the events the encoder can write. Covered by semver like the main entry;
// kept apart so that decoding and encoding load no zod.
export { sseEventSchema } from "./sse-event-schema.js";
