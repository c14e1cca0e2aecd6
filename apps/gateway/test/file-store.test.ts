import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateConfig } from "../src/config/load-config.ts";
import { FileTooLargeError } from "../src/files/file-errors.ts";
import { isFileKey, newFileKey } from "../src/files/file-key.ts";
import type { FileRecord, FileStore } from "../src/files/file-store.ts";
import { startFileSweeper } from "../src/files/file-sweeper.ts";
import { LocalFileStore } from "../src/files/local-file-store.ts";
import { openFileStore } from "../src/files/open-file-store.ts";
import { S3_PART_BYTES, s3ClientConfig } from "../src/files/s3-file-store.ts";
import { createLogger } from "../src/log/logger.ts";
import type { Store } from "../src/storage/store.ts";
import { startLocalS3 } from "./file-store-s3rver.ts";
import { type Driver, postgresDriver, postgresReachable, sqliteDriver } from "./storage/drivers.ts";

// One contract over both file store drivers: the local directory and S3, the latter against an
// in-process S3-compatible server (s3rver) on a random loopback port with a temporary directory.

const BUCKET = "interlingua-files";
const PREFIX = "uploads/";
const pgUp = await postgresReachable();

/** `size` bytes of a deterministic pattern, so a shifted or repeated chunk shows. */
function pattern(size: number, seed = 7): Uint8Array {
  const bytes = new Uint8Array(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

/** A web stream of `bytes` in `chunk`-sized pieces; `pulled` counts what the store asked for. */
function streamOf(bytes: Uint8Array, chunk = 64 * 1024) {
  const state = { pulled: 0 };
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (offset >= bytes.byteLength) {
          controller.close();
          return;
        }
        const piece = bytes.slice(offset, offset + chunk);
        offset += piece.byteLength;
        state.pulled += piece.byteLength;
        controller.enqueue(piece);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

async function readAll(stream: ReadableStream<Uint8Array> | undefined): Promise<Buffer> {
  if (stream === undefined) throw new Error("no such file");
  return Buffer.from(await new Response(stream).arrayBuffer());
}

/** Byte equality without a deep compare of megabytes. */
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

interface StoreUnderTest {
  readonly store: FileStore;
  /** Every name the driver holds (files in the directory, objects in the bucket). */
  names(): Promise<string[]>;
}

const drivers: { name: string; open(): Promise<StoreUnderTest & { close(): Promise<void> }> }[] = [
  {
    name: "local",
    async open() {
      const dir = await mkdtemp(join(tmpdir(), "interlingua-files-"));
      const store = new LocalFileStore(join(dir, "files"));
      return {
        store,
        names: async () => readdir(join(dir, "files")).catch(() => []),
        async close() {
          await store.close();
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: "s3",
    async open() {
      const s3 = await startLocalS3(BUCKET, "uploads");
      const store = openFileStore({ files: { s3: s3.config }, files_dir: "unused" });
      const raw = new S3Client(s3ClientConfig(s3.config));
      return {
        store,
        async names() {
          const listed = await raw.send(new ListObjectsV2Command({ Bucket: BUCKET }));
          return (listed.Contents ?? []).map((o) => o.Key ?? "");
        },
        async close() {
          raw.destroy();
          await store.close();
          await s3.close();
        },
      };
    },
  },
];

describe("file keys", () => {
  it("are random base62 with the extension, and valid keys", () => {
    const keys = new Set(Array.from({ length: 200 }, () => newFileKey("png")));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(/^[0-9A-Za-z]{32}\.png$/);
      expect(isFileKey(key)).toBe(true);
    }
  });

  it.each([
    "../etc/passwd",
    "a/b.png",
    "..",
    ".hidden",
    "",
    "a\\b",
    "a b.png",
    "x".repeat(200),
    "%2e%2e",
  ])("refuses %j", (key) => {
    expect(isFileKey(key)).toBe(false);
  });
});

for (const driver of drivers) {
  describe(`FileStore contract: ${driver.name}`, () => {
    let under: StoreUnderTest & { close(): Promise<void> };
    let store: FileStore;
    beforeAll(async () => {
      under = await driver.open();
      store = under.store;
    });
    afterAll(() => under.close());

    it("names its driver", () => {
      expect(store.driver).toBe(driver.name);
    });

    it("keeps bytes given whole and serves them back", async () => {
      const key = newFileKey("png");
      const bytes = pattern(1000);
      expect(await store.put(key, bytes, { contentType: "image/png" })).toBe(1000);
      expect(same(await readAll(await store.get(key)), bytes)).toBe(true);
    });

    it("streams a body larger than one S3 part in odd chunks", async () => {
      const key = newFileKey("bin");
      const bytes = pattern(2 * S3_PART_BYTES + 12_345, 3);
      const { stream } = streamOf(bytes, 100_003);
      expect(await store.put(key, stream, { contentType: "video/mp4" })).toBe(bytes.byteLength);
      expect(same(await readAll(await store.get(key)), bytes)).toBe(true);
    });

    it("keeps an empty file", async () => {
      const key = newFileKey("txt");
      expect(await store.put(key, new Uint8Array(0), { contentType: "text/plain" })).toBe(0);
      expect((await readAll(await store.get(key))).byteLength).toBe(0);
    });

    it("answers undefined for a missing key, and delete makes a key missing", async () => {
      expect(await store.get(newFileKey("png"))).toBeUndefined();
      const key = newFileKey("gif");
      await store.put(key, pattern(10), { contentType: "image/gif" });
      await store.delete(key);
      expect(await store.get(key)).toBeUndefined();
      await store.delete(key); // deleting what is gone is fine
    });

    it("accepts exactly maxBytes", async () => {
      const key = newFileKey("png");
      const { stream } = streamOf(pattern(300_000));
      expect(await store.put(key, stream, { contentType: "image/png", maxBytes: 300_000 })).toBe(
        300_000,
      );
    });

    it("refuses past maxBytes while streaming: stops reading, keeps nothing", async () => {
      const before = await under.names();
      const key = newFileKey("png");
      const maxBytes = S3_PART_BYTES + 100_000; // past one S3 part: a multipart upload is aborted
      const { stream, state } = streamOf(pattern(4 * S3_PART_BYTES), 64 * 1024);
      await expect(store.put(key, stream, { contentType: "image/png", maxBytes })).rejects.toThrow(
        FileTooLargeError,
      );
      // Read up to the cap and a little more (stream buffers), never the whole body.
      expect(state.pulled).toBeGreaterThan(maxBytes);
      expect(state.pulled).toBeLessThan(maxBytes + 4 * 64 * 1024);
      expect(await store.get(key)).toBeUndefined();
      expect(await under.names()).toEqual(before);
    });

    it("keeps nothing when the body fails midway", async () => {
      const before = await under.names();
      const key = newFileKey("png");
      let sent = 0;
      const failing = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 3) controller.error(new Error("client went away"));
          else {
            sent++;
            controller.enqueue(pattern(S3_PART_BYTES));
          }
        },
      });
      await expect(store.put(key, failing, { contentType: "image/png" })).rejects.toThrow(
        "client went away",
      );
      expect(await store.get(key)).toBeUndefined();
      expect(await under.names()).toEqual(before);
    });

    it("refuses keys that could leave its directory or prefix", async () => {
      for (const key of ["../escape.png", "a/b.png", ".put-x", "..", ""]) {
        await expect(store.put(key, pattern(1), { contentType: "image/png" })).rejects.toThrow(
          RangeError,
        );
        await expect(store.get(key)).rejects.toThrow(RangeError);
        await expect(store.delete(key)).rejects.toThrow(RangeError);
      }
    });

    if (driver.name === "s3") {
      it("puts every object under the prefix", async () => {
        const key = newFileKey("png");
        await store.put(key, pattern(5), { contentType: "image/png" });
        const names = await under.names();
        expect(names).toContain(`${PREFIX}${key}`);
        expect(names.every((n) => n.startsWith(PREFIX))).toBe(true);
      });
    } else {
      it("leaves no temporary files behind", async () => {
        expect((await under.names()).filter((n) => n.startsWith("."))).toEqual([]);
      });
    }
  });
}

const record = (key: string, expiresAt: number, extra: Partial<FileRecord> = {}): FileRecord => ({
  key,
  userId: "alice",
  purpose: "upload",
  filename: "cat.png",
  contentType: "image/png",
  bytes: 12,
  createdAt: 1_000,
  expiresAt,
  ...extra,
});

const sqlDrivers: Driver[] = pgUp ? [sqliteDriver, postgresDriver] : [sqliteDriver];
if (!pgUp)
  describe.skip("FileRecords: postgres (server unreachable)", () => it("skipped", () => {}));

for (const driver of sqlDrivers) {
  describe(`FileRecords: ${driver.name}`, () => {
    let store: Store;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      ({ store, drop } = await driver.open());
    });
    afterAll(() => drop());

    it("round-trips a record, absent fields included", async () => {
      await store.files.insert(record("a1.png", 5_000));
      await store.files.insert(
        record("a2.mp4", 5_000, { userId: undefined, filename: undefined, purpose: "task-result" }),
      );
      expect(await store.files.get("a1.png")).toEqual(record("a1.png", 5_000));
      expect(await store.files.get("a2.mp4")).toEqual(
        record("a2.mp4", 5_000, { userId: undefined, filename: undefined, purpose: "task-result" }),
      );
      expect(await store.files.get("nope.png")).toBeUndefined();
    });

    it("refuses a duplicate key", async () => {
      await expect(store.files.insert(record("a1.png", 9_000))).rejects.toThrow();
    });

    it("takes expired records (oldest first, up to the limit), once", async () => {
      for (const [key, at] of [
        ["e1.png", 100],
        ["e2.png", 200],
        ["e3.png", 300],
        ["live.png", 10_000],
      ] as const)
        await store.files.insert(record(key, at));
      const first = await store.files.takeExpired(300, 2);
      expect(first.map((r) => r.key)).toEqual(["e1.png", "e2.png"]);
      const second = await store.files.takeExpired(300, 10);
      expect(second.map((r) => r.key)).toEqual(["e3.png"]);
      expect(await store.files.takeExpired(300, 10)).toEqual([]);
      expect(await store.files.get("e1.png")).toBeUndefined();
      expect(await store.files.get("live.png")).toBeDefined();
    });

    it("never hands one expired record to two sweepers", async () => {
      const keys = Array.from({ length: 40 }, (_, i) => `c${i}.png`);
      for (const key of keys) await store.files.insert(record(key, 50));
      const takes = await Promise.all(
        Array.from({ length: 4 }, () => store.files.takeExpired(60, 15)),
      );
      const taken = takes.flat().map((r) => r.key);
      expect(new Set(taken).size).toBe(taken.length);
      const rest = await store.files.takeExpired(60, 100);
      expect([...taken, ...rest.map((r) => r.key)].sort()).toEqual([...keys].sort());
    });
  });
}

describe("file sweeper", () => {
  it("deletes expired rows and their bytes, and leaves the rest", async () => {
    const { store, drop } = await sqliteDriver.open();
    const dir = await mkdtemp(join(tmpdir(), "interlingua-sweep-"));
    const files = new LocalFileStore(dir);
    let now = 1_000_000;
    const sweeper = startFileSweeper({
      records: store.files,
      store: files,
      now: () => now,
      log: createLogger({ level: "silent" }),
      intervalMs: 60_000,
      batch: 2,
    });
    try {
      const keys = [newFileKey("png"), newFileKey("png"), newFileKey("png"), newFileKey("jpg")];
      for (const [i, key] of keys.entries()) {
        await files.put(key, pattern(10), { contentType: "image/png" });
        await store.files.insert(record(key, i < 3 ? now + 10 : now + 1_000_000));
      }
      expect(await sweeper.sweep()).toBe(0);
      now += 10;
      expect(await sweeper.sweep()).toBe(3);
      expect((await readdir(dir)).sort()).toEqual([keys[3]]);
      expect(await store.files.get(keys[3] ?? "")).toBeDefined();
    } finally {
      await sweeper.stop();
      await drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("files config", () => {
  const s3 = { bucket: "b", region: "us-east-1" };

  it("chooses the driver: files_dir by default, S3 when files.s3 is set", () => {
    const local = validateConfig({});
    const remote = validateConfig({ files: { s3 } });
    if (!local.ok || !remote.ok) throw new Error("valid configs refused");
    expect(openFileStore(local.config).driver).toBe("local");
    const store = openFileStore(remote.config);
    expect(store.driver).toBe("s3");
    void store.close();
    expect(remote.config.files?.s3).toEqual({ ...s3, force_path_style: false });
  });

  it.each([
    [{ s3: { region: "us-east-1" } }, "files.s3.bucket"],
    [{ s3: { bucket: "b" } }, "files.s3.region"],
    [{ s3: { ...s3, endpoint: "minio:9000" } }, "files.s3.endpoint"],
    [{ s3: { ...s3, access_key_id: "k" } }, "files.s3.secret_access_key"],
    [{ s3: { ...s3, bucket_name: "b" } }, "files.s3"],
    [{ gcs: {} }, "files"],
  ])("refuses %j naming %s", (files, path) => {
    const result = validateConfig({ files });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.some((e) => e.startsWith(path))).toBe(true);
  });
});
