import { type ChildProcess, spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));

/** A gateway in its own process (`src/cli.ts serve`), as an operator runs it. */
export interface GatewayChild {
  readonly url: string;
  readonly process: ChildProcess;
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  readonly exited: Promise<number | string>;
  /** What it wrote to stderr so far (for failure messages). */
  stderr(): string;
}

/** Writes `config` as JSON next to `dir` and starts `interlingua serve` on it. */
export async function startGatewayChild(
  dir: string,
  name: string,
  config: Record<string, unknown>,
  children: GatewayChild[],
): Promise<GatewayChild> {
  const file = join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(config, null, 2));
  const child = spawn(process.execPath, [CLI, "serve", "--config", file], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, LOG_LEVEL: "warn", PORT: "0" },
  });
  let errors = "";
  child.stderr?.on("data", (data: Buffer) => {
    errors += data.toString();
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    // Bounds a hang, not a speed: a loaded machine has taken over 20 s to start one.
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${errors}`)), 45_000);
    lines.on("line", (line) => {
      const match = /^Interlingua gateway listening on (\S+)$/.exec(line);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before listening:\n${errors}`));
    });
  });
  const running: GatewayChild = { url, process: child, exited, stderr: () => errors };
  children.push(running);
  return running;
}

/** Kills what is still running (afterAll). */
export async function killAll(children: GatewayChild[]): Promise<void> {
  await Promise.all(
    children.map(async (child) => {
      if (child.process.exitCode === null && child.process.signalCode === null) {
        child.process.kill("SIGKILL");
        await child.exited;
      }
    }),
  );
}
