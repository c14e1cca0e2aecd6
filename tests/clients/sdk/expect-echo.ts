/** Prints one session's final answer; a session that did not answer the tool result fails the run. */
export function report(session: string, answer: string): void {
  console.log(`${session}: ${answer}`);
  if (!answer.includes("echo:")) {
    console.error(`${session}: no answer after the tool result`);
    process.exitCode = 1;
  }
}
