import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";

/** A target's memory after full collections, in bytes (see apps/gateway/bench/heap-probe.ts). */
export interface HeapReading {
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/**
 * `apps/gateway/bench/serve.ts` of a checkout (`root`) in its own process, added
 * to `children` so the caller can kill it; resolves to the URL it prints and its pid. Its stdin
 * stays open as a lifeline: serve.ts exits when it closes. With `GATEWAY_CPU_PROF=<dir>` a
 * gateway writes its CPU profile there. With `heapProbe`, the target runs with heap-probe.ts
 * preloaded and `heap()` reads its memory after full collections over IPC.
 */
export async function startServe(
  root: string,
  args: string[],
  children: ChildProcess[],
  options: { heapProbe?: boolean } = {},
): Promise<{ url: string; pid: number; heap: () => Promise<HeapReading> }> {
  const profile = args[0] === "gateway" ? process.env.GATEWAY_CPU_PROF : undefined;
  const execArgv = profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : [];
  if (options.heapProbe)
    execArgv.push("--expose-gc", "--import", join(root, "apps/gateway/bench/heap-probe.ts"));
  const child = spawn(
    process.execPath,
    [...execArgv, join(root, "apps/gateway/bench/serve.ts"), ...args],
    {
      stdio: ["pipe", "pipe", "inherit", ...(options.heapProbe ? (["ipc"] as const) : [])],
    },
  );
  children.push(child);
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", () => reject(new Error(`serve.ts ${args[0]} exited before listening`)));
  });
  const heap = () =>
    new Promise<HeapReading>((resolve, reject) => {
      if (!options.heapProbe) return reject(new Error("started without heapProbe"));
      const died = () => reject(new Error(`serve.ts ${args[0]} exited before its heap reading`));
      child.once("exit", died);
      child.once("message", (reading) => {
        child.off("exit", died);
        resolve(reading as HeapReading);
      });
      child.send("heap");
    });
  return { url, pid: child.pid!, heap };
}
