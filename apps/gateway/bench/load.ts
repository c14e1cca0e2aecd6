import { Agent, type Dispatcher } from "undici";

export interface LoadResult {
  name: string;
  requests: number;
  errors: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface LoadCase {
  name: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/**
 * Closed-loop load: `concurrency` workers each send the next request as soon as the previous
 * reply has been read to its end (streams included), for `durationMs`, after a short warm-up.
 */
export async function runLoad(
  load: LoadCase,
  options: { concurrency: number; durationMs: number; warmupMs: number },
): Promise<LoadResult> {
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: options.concurrency });
  const target = new URL(load.url);
  const send = async (): Promise<boolean> => {
    const reply: Dispatcher.ResponseData = await agent.request({
      origin: target.origin,
      path: target.pathname + target.search,
      method: "POST",
      headers: { "content-type": "application/json", ...load.headers },
      body: load.body,
    });
    for await (const _chunk of reply.body) {
      // Read every byte: a stream counts when it has ended.
    }
    return reply.statusCode === 200;
  };
  const phase = async (ms: number, record: boolean) => {
    const latencies: number[] = [];
    let errors = 0;
    const end = performance.now() + ms;
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (performance.now() < end) {
          const start = performance.now();
          const ok = await send().catch(() => false);
          if (!record) continue;
          if (ok) latencies.push(performance.now() - start);
          else errors++;
        }
      }),
    );
    return { latencies, errors };
  };
  await phase(options.warmupMs, false);
  const started = performance.now();
  const { latencies, errors } = await phase(options.durationMs, true);
  const elapsed = performance.now() - started;
  await agent.close();
  latencies.sort((a, b) => a - b);
  return {
    name: load.name,
    requests: latencies.length,
    errors,
    perSecond: (latencies.length * 1000) / elapsed,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
}
