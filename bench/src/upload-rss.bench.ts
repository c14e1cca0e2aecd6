// RSS of the gateway while it takes a 20 MB image upload (stored) and a 20 MB + 1 byte one
// (refused with a 413 after the rest is read and dropped). Uploads are parsed, checked and
// stored as they stream in, never buffered whole; the target is under 8 MB of RSS growth each.
//
// The gateway runs in a child process (this file with --child: the gateway as serve.ts starts
// it, plus `--expose-gc` and an IPC "gc" command); its RSS is read from /proc/<pid>/status,
// sampled every 2 ms during each upload. Three numbers per case:
//   fresh    peak growth in a gateway that took one small upload, over its RSS right after a
//            full GC. Node's HTTP parser copies every body piece into a fresh buffer, garbage
//            the moment it is written or dropped, but V8 only collects such memory at its
//            external-memory GC (~64 MB), so in a fresh process this shows the request's size
//            whether the gateway keeps any of it or not (the 413 keeps nothing at all).
//   retained growth of live memory (V8 heap and buffers, from process.memoryUsage()) after
//            that upload and a full GC: what the upload kept. (RSS itself does not shrink after
//            a GC: the allocator keeps freed pages for reuse, which "steady" shows.)
//   steady   peak growth over the RSS before the upload, in a gateway that has taken uploads
//            before (no forced GC): the freed memory is reused, which is what a server sees.
// A floor row shows "fresh" for a bare node:http server that reads each body and drops it.
//   cd bench && node src/upload-rss.bench.ts [--rounds 3] [--warmup 6]
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { crc32, deflateSync } from "node:zlib";

const LIMIT = 20_971_520;
const MB = 1024 * 1024;
const KEY = "sk-bench";

if (process.argv[2] === "--child") {
  await runChild();
} else if (process.argv[2] === "--floor") {
  await runFloor();
} else {
  await runParent();
}

/** The gateway, configured as apps/gateway/bench/serve.ts does (temporary SQLite and files_dir). */
async function runChild(): Promise<void> {
  const { validateConfig } = await import("../../apps/gateway/src/config/load-config.ts");
  const { createLogger } = await import("../../apps/gateway/src/log/logger.ts");
  const { startGateway } = await import("../../apps/gateway/src/start-gateway.ts");
  const dir = mkdtempSync(join(tmpdir(), "interlingua-upload-rss-"));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  const config = validateConfig({
    listen: { port: 0 },
    database_url: `sqlite:${join(dir, "bench.db")}`,
    files_dir: join(dir, "files"),
    users: [{ id: "bench", unlimited: true }],
    tokens: [{ key: KEY, user: "bench", unlimited: true }],
    channels: [
      {
        name: "none",
        protocol: "openai",
        base_url: "http://127.0.0.1:9",
        api_key: "k",
        models: ["m"],
      },
    ],
    pricing: { m: { per_request: 0 } },
  });
  if (!config.ok) throw new Error(config.errors.join("\n"));
  const gateway = await startGateway(config.config, { logger: createLogger({ level: "warn" }) });
  answerGc();
  process.send?.({ url: gateway.url });
}

/** The floor: a bare node:http server that reads each body and drops it, answering 200. */
async function runFloor(): Promise<void> {
  const { createServer } = await import("node:http");
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => response.end("{}"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  answerGc();
  process.send?.({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}` });
}

function answerGc(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  process.on("message", (message) => {
    if (message === "gc") {
      gc?.();
      gc?.();
      const { heapUsed, external } = process.memoryUsage();
      process.send?.({ live: heapUsed + external });
    }
  });
  process.on("disconnect", () => process.exit(0));
}

async function runParent(): Promise<void> {
  const { values: flags } = parseArgs({
    options: {
      rounds: { type: "string", default: "3" },
      warmup: { type: "string", default: "6" },
    },
  });
  setTimeout(() => {
    console.error("upload-rss: over the 5 minute limit, stopping");
    process.exit(1);
  }, 300_000).unref();
  const children: ChildProcess[] = [];
  process.once("exit", () => {
    for (const child of children) child.kill();
  });
  const cases = [
    { name: "20 MB (20971520 B), stored", bytes: png(LIMIT), expected: 200 },
    { name: "20 MB + 1 B, refused 413", bytes: png(LIMIT + 1), expected: 413 },
  ];
  const small = png(1024);
  const rounds = Number(flags.rounds);
  const results = cases.map((c) => ({
    name: c.name,
    fresh: [] as number[],
    retained: [] as number[],
    steady: [] as number[],
  }));
  for (let round = 0; round < rounds; round++) {
    for (const [i, c] of cases.entries()) {
      const gateway = await startChild(children);
      // A small upload first: lazy imports and compiled code are not the big upload's cost.
      await gateway.upload(small, 200);
      const live = await gateway.collect();
      results[i]?.fresh.push(await gateway.peakGrowth(c.bytes, c.expected, gateway.rss()));
      results[i]?.retained.push((await gateway.collect()) - live);
      gateway.child.kill();
    }
  }
  // The same fresh measurement against a server that only reads and drops the body.
  const floor: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const server = await startChild(children, "--floor");
    await server.upload(small, 200);
    await server.collect();
    floor.push(await server.peakGrowth(cases[0]?.bytes ?? small, 200, server.rss()));
    server.child.kill();
  }
  const gateway = await startChild(children);
  for (let i = 0; i < Number(flags.warmup); i++)
    for (const c of cases) await gateway.upload(c.bytes, c.expected);
  for (const [i, c] of cases.entries()) {
    for (let r = 0; r < rounds; r++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      results[i]?.steady.push(await gateway.peakGrowth(c.bytes, c.expected, gateway.rss()));
    }
  }
  const fmt = (values: number[]) => values.map((n) => (n / MB).toFixed(1).padStart(5)).join(" ");
  console.log(`gateway RSS growth per upload, MB, ${rounds} rounds each (target: under 8 MB)`);
  console.log(`${"".padEnd(28)} ${"fresh".padEnd(18)} ${"retained".padEnd(18)} steady`);
  for (const r of results)
    console.log(
      `${r.name.padEnd(28)} ${fmt(r.fresh).padEnd(18)} ${fmt(r.retained).padEnd(18)} ${fmt(r.steady)}`,
    );
  console.log(`${"floor: node:http, dropped".padEnd(28)} ${fmt(floor)}`);
  const worst = Math.max(...results.flatMap((r) => [...r.retained, ...r.steady]));
  console.log(
    `retained and steady growth ${worst < 8 * MB ? "within" : "OVER"} the 8 MB target (worst ${(worst / MB).toFixed(1)} MB)`,
  );
  process.exit(worst < 8 * MB ? 0 : 1);
}

/** A gateway child (this file with --child) and what the parent measures through it. */
async function startChild(children: ChildProcess[], mode = "--child") {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--expose-gc", fileURLToPath(import.meta.url), mode],
    { stdio: ["ignore", "inherit", "inherit", "ipc"] },
  );
  children.push(child);
  const pid = child.pid ?? 0;
  const url = await new Promise<string>((resolve, reject) => {
    child.once("message", (m) => resolve((m as { url: string }).url));
    child.once("exit", () => reject(new Error("the gateway exited before listening")));
  });
  const rss = () => {
    const match = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/);
    return Number(match?.[1] ?? Number.NaN) * 1024;
  };
  /** Bytes still live (JS heap and buffers) after a full GC. */
  const collect = () =>
    new Promise<number>((resolve) => {
      child.once("message", (m) => resolve((m as { live: number }).live));
      child.send("gc");
    });
  async function upload(bytes: Buffer, expected: number): Promise<void> {
    const form = new FormData();
    form.append("file", new Blob([bytes], { type: "image/png" }), "big.png");
    const reply = await fetch(`${url}/v1/uploads/images`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}` },
      body: form,
    });
    await reply.arrayBuffer();
    if (reply.status !== expected)
      throw new Error(`upload of ${bytes.length} bytes: ${reply.status}, not ${expected}`);
  }
  /** Peak RSS growth over `before` while one upload runs. */
  async function peakGrowth(bytes: Buffer, expected: number, before: number): Promise<number> {
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rss());
    }, 2);
    await upload(bytes, expected);
    clearInterval(sampler);
    return Math.max(peak, rss()) - before;
  }
  return { child, rss, collect, upload, peakGrowth };
}

/** A 1x1 PNG of exactly `total` bytes: a tEXt chunk pads it inside a valid structure. */
function png(total: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.from(type, "latin1");
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    head.copy(out, 4);
    data.copy(out, 8);
    out.writeUInt32BE(crc32(data, crc32(head)), 8 + data.length);
    return out;
  };
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const ihdr = chunk("IHDR", Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]));
  const idat = chunk("IDAT", deflateSync(Buffer.from([0, 255, 0, 0, 255])));
  const iend = chunk("IEND", Buffer.alloc(0));
  const pad = total - signature.length - ihdr.length - idat.length - iend.length - 12;
  return Buffer.concat([signature, ihdr, chunk("tEXt", Buffer.alloc(pad, 0x61)), idat, iend]);
}
