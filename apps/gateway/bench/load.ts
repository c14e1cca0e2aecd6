import { Agent, type Dispatcher } from "undici";

export interface LoadResult {
  name: string;
  requests: number;
  /** Requests that failed or answered other than 200, by status (`"error"` for transport failures). */
  errors: number;
  failures: Record<string, number>;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Time from sending the request to the first byte of the reply body, median. */
  ttfbP50Ms: number;
}

export interface LoadCase {
  name: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

const requestOf = (load: LoadCase) => {
  const target = new URL(load.url);
  return {
    origin: target.origin,
    path: target.pathname + target.search,
    method: "POST" as const,
    headers: { "content-type": "application/json", ...load.headers },
    body: load.body,
  };
};

/** One request, read whole: the status and body text, to check a case answers for real. */
export async function probe(load: LoadCase): Promise<{ status: number; text: string }> {
  const agent = new Agent();
  try {
    const reply = await agent.request(requestOf(load));
    return { status: reply.statusCode, text: await reply.body.text() };
  } finally {
    await agent.close();
  }
}

/**
 * Closed-loop load: `concurrency` workers each send the next request as soon as the previous
 * reply has been read to its end (streams included), for `durationMs`, after a short warm-up.
 */
export async function runLoad(
  load: LoadCase,
  options: { concurrency: number; durationMs: number; warmupMs: number },
): Promise<LoadResult> {
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: options.concurrency });
  const request = requestOf(load);
  /** Resolves to the time to the first body byte, or to the failing status. */
  const send = async (start: number): Promise<number | string> => {
    const reply: Dispatcher.ResponseData = await agent.request(request);
    let ttfb = -1;
    for await (const _chunk of reply.body) {
      // Read every byte: a stream counts when it has ended.
      if (ttfb < 0) ttfb = performance.now() - start;
    }
    return reply.statusCode === 200 ? ttfb : String(reply.statusCode);
  };
  const phase = async (ms: number, record: boolean) => {
    const latencies: number[] = [];
    const ttfbs: number[] = [];
    const failures: Record<string, number> = {};
    const end = performance.now() + ms;
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (performance.now() < end) {
          const start = performance.now();
          const outcome = await send(start).catch(() => "error");
          if (!record) continue;
          if (typeof outcome === "number") {
            latencies.push(performance.now() - start);
            ttfbs.push(outcome);
          } else failures[outcome] = (failures[outcome] ?? 0) + 1;
        }
      }),
    );
    return { latencies, ttfbs, failures };
  };
  await phase(options.warmupMs, false);
  const started = performance.now();
  const { latencies, ttfbs, failures } = await phase(options.durationMs, true);
  const elapsed = performance.now() - started;
  await agent.close();
  latencies.sort((a, b) => a - b);
  ttfbs.sort((a, b) => a - b);
  return {
    name: load.name,
    requests: latencies.length,
    errors: Object.values(failures).reduce((a, b) => a + b, 0),
    failures,
    perSecond: (latencies.length * 1000) / elapsed,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    ttfbP50Ms: percentile(ttfbs, 0.5),
  };
}
