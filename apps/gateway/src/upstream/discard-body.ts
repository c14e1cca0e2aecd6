import type { Readable } from "node:stream";

const ignore = () => {};

/**
 * Destroys an upstream body that will not be read to its end. undici errors such a body as it
 * is destroyed (`RequestAbortedError`): with nobody listening, that error would be an uncaught
 * 'error' event, which ends the process.
 */
export function discardBody(body: Readable): void {
  body.on("error", ignore);
  body.destroy();
}
