/** Prints one session's final answer; a session that did not answer the tool result fails the run. */
export function report(session: string, answer: string): void {
  console.log(`${session}: ${answer}`);
  if (!answer.includes("echo:")) {
    console.error(`${session}: no answer after the tool result`);
    process.exitCode = 1;
  }
}

/** Prints a structured answer; one that is not the schema's object fails the run. */
export function reportObject(session: string, value: unknown): void {
  console.log(`${session}: ${JSON.stringify(value)}`);
  const weather = value as { city?: unknown; temp?: unknown } | null;
  if (typeof weather?.city !== "string" || typeof weather.temp !== "number") {
    console.error(`${session}: the structured answer does not follow its schema`);
    process.exitCode = 1;
  }
}
