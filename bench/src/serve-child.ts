import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";

/**
 * `apps/gateway/bench/serve.ts` of a checkout (`root`) in its own process, added
 * to `children` so the caller can kill it; resolves to the URL it prints and its pid. Its stdin
 * stays open as a lifeline: serve.ts exits when it closes. With `GATEWAY_CPU_PROF=<dir>` a
 * gateway writes its CPU profile there.
 */
export async function startServe(
  root: string,
  args: string[],
  children: ChildProcess[],
): Promise<{ url: string; pid: number }> {
  const profile = args[0] === "gateway" ? process.env.GATEWAY_CPU_PROF : undefined;
  const execArgv = profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : [];
  const child = spawn(
    process.execPath,
    [...execArgv, join(root, "apps/gateway/bench/serve.ts"), ...args],
    {
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  children.push(child);
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", () => reject(new Error(`serve.ts ${args[0]} exited before listening`)));
  });
  return { url, pid: child.pid! };
}
