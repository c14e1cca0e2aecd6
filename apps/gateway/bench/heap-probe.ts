// Preloaded into a benchmark target by bench/src/serve-child.ts (`node --expose-gc --import
// heap-probe.ts serve.ts ...`, with an IPC channel), so a bench can read the target's heap without
// any hook in the gateway itself: each "heap" message is answered with the memory in use after
// full collections, which leaves only what is still reachable (the held streams), not garbage.
import { memoryUsage } from "node:process";

const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined) throw new Error("heap-probe.ts needs node --expose-gc");

process.on("message", (message) => {
  if (message !== "heap") return;
  // Twice: objects kept alive by a finalizer or weak callback of the first pass go in the second.
  collect();
  collect();
  const { heapUsed, external, arrayBuffers } = memoryUsage();
  process.send?.({ heapUsed, external, arrayBuffers });
});
