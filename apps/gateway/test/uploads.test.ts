import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { uploadErrorBodySchema } from "@interlingua/errors/schemas";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openOwnFile, ownFileKey } from "../src/files/own-file.ts";
import { s3ClientConfig } from "../src/files/s3-file-store.ts";
import { UPLOAD_MAX_BYTES, UPLOAD_TTL_MS } from "../src/files/upload-limits.ts";
import { startLocalS3 } from "./file-store-s3rver.ts";
import { auth, eventuallyAsync, KEY, type Stack, startStack } from "./stack.ts";
import { POSTGRES_URL, postgresReachable } from "./storage/drivers.ts";
import { gif, jpeg, png, pngChunk, webp } from "./uploads-images.ts";

// POST /v1/uploads/images and GET /files/<key> through real HTTP, on SQLite and Postgres: the
// flat record, the type sniffed from the bytes, every refusal in the upload envelope with
// nothing stored, the 20 MB cap to the byte, serving until expiry (a test clock), the sweeper.

const pgUp = await postgresReachable();
const databases = pgUp ? [undefined, POSTGRES_URL] : [undefined];
if (!pgUp) describe.skip("uploads: postgres (server unreachable)", () => it("skipped", () => {}));

const RATE_LIMITED_KEY = "sk-test-upload-rpm";
const UPLOAD_RECORD_KEYS = ["bytes", "content_type", "created_at", "filename", "url"];

interface Reply {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
}

async function send(url: string, body: BodyInit, headers: Record<string, string> = auth()) {
  const response = await fetch(`${url}/v1/uploads/images`, {
    method: "POST",
    headers,
    body,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: JSON.parse(text) } as Reply;
}

function form(
  parts: { name: string; bytes?: Uint8Array; filename?: string; type?: string; text?: string }[],
) {
  const data = new FormData();
  for (const part of parts) {
    if (part.text !== undefined) data.append(part.name, part.text);
    else
      data.append(
        part.name,
        new Blob([new Uint8Array(part.bytes ?? [])], {
          type: part.type ?? "application/octet-stream",
        }),
        part.filename ?? "image.bin",
      );
  }
  return data;
}

const upload = (url: string, bytes: Uint8Array, filename = "image.bin", type?: string) =>
  send(url, form([{ name: "file", bytes, filename, ...(type === undefined ? {} : { type }) }]));

/** A raw multipart body, for what FormData will not produce. */
function rawMultipart(boundary: string, parts: string[], close = true): string {
  return (
    parts.map((p) => `--${boundary}\r\n${p}\r\n`).join("") + (close ? `--${boundary}--\r\n` : "")
  );
}

function expectUploadError(reply: Reply, status: number, type: string, message?: RegExp) {
  expect(reply.status).toBe(status);
  expect(reply.headers.get("content-type")).toMatch(/application\/json/);
  const body = uploadErrorBodySchema.parse(reply.json);
  expect(body.error.type).toBe(type);
  if (status === 429) expect(body.error.code).toBe(429);
  else expect("code" in body.error).toBe(false);
  if (message !== undefined) expect(body.error.message).toMatch(message);
}

for (const databaseUrl of databases) {
  const driver = databaseUrl === undefined ? "sqlite" : "postgres";

  describe(`uploads (${driver})`, () => {
    let stack: Stack;
    let filesDir: string;
    let clock = Date.UTC(2026, 0, 1);
    let base: string;

    /** Names in files_dir: stored bytes, and any temporary file left behind. */
    const stored = async () => readdir(filesDir).catch(() => [] as string[]);
    const keyOf = (url: string) => new URL(url).pathname.replace(/^\/files\//, "");

    /** A refusal stores nothing: no new bytes (or temporary files), no new row. */
    async function expectNothingStored(run: () => Promise<void>) {
      const before = await stored();
      await run();
      expect(await stored()).toEqual(before);
    }

    beforeAll(async () => {
      filesDir = await mkdtemp(join(tmpdir(), "interlingua-uploads-"));
      stack = await startStack(
        {
          databaseUrl,
          files_dir: filesDir,
          users: [{ id: "alice", quota: 1_000_000_000_000 }],
          tokens: [
            { key: KEY, user: "alice", unlimited: true },
            { key: RATE_LIMITED_KEY, user: "alice", unlimited: true, rate_limit: { rpm: 1 } },
          ],
        },
        { now: () => clock, fileSweepIntervalMs: 50 },
      );
      base = stack.gateway.url;
    });
    afterAll(async () => {
      await stack.close();
      await rm(filesDir, { recursive: true, force: true });
    });

    it("stores a PNG and returns the flat upload record", async () => {
      const bytes = png();
      const reply = await upload(base, bytes, "cat.png", "image/png");
      expect(reply.status).toBe(200);
      expect(Object.keys(reply.json).sort()).toEqual(UPLOAD_RECORD_KEYS);
      expect(reply.json).toMatchObject({
        filename: "cat.png",
        content_type: "image/png",
        bytes: bytes.length,
        created_at: Math.floor(clock / 1000),
      });
      const url = String(reply.json["url"]);
      expect(url).toMatch(new RegExp(`^${base}/files/[0-9A-Za-z]{32}\\.png$`));
      const row = await stack.gateway.services.store.files.get(keyOf(url));
      expect(row).toMatchObject({
        purpose: "upload",
        userId: "alice",
        contentType: "image/png",
        bytes: bytes.length,
        createdAt: clock,
        expiresAt: clock + UPLOAD_TTL_MS,
      });
      expect(await stored()).toContain(keyOf(url));
    });

    it("serves the bytes unchanged with the recorded type, length and headers", async () => {
      const bytes = png();
      const { json } = await upload(base, bytes, "cat.png");
      const served = await fetch(String(json["url"]));
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/png");
      expect(served.headers.get("content-length")).toBe(String(bytes.length));
      expect(served.headers.get("x-content-type-options")).toBe("nosniff");
      expect(served.headers.get("cache-control")).toBe(
        `public, max-age=${UPLOAD_TTL_MS / 1000}, immutable`,
      );
      expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
      // HEAD: the same headers from the record, no body.
      const head = await fetch(String(json["url"]), { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(head.headers.get("content-length")).toBe(String(bytes.length));
      expect((await head.arrayBuffer()).byteLength).toBe(0);
    });

    it.each([
      ["jpeg", jpeg(), "photo.jpg", "image/jpeg", "jpg"],
      ["gif", gif(), "anim.gif", "image/gif", "gif"],
      ["webp", webp(), "pic.webp", "image/webp", "webp"],
      // The name and the declared type say JPEG; the bytes are a PNG, so it is a PNG.
      ["a PNG named .jpg", png(), "photo.jpg", "image/png", "png"],
      ["a JPEG sent as text/plain", jpeg(), "notes.txt", "image/jpeg", "jpg"],
    ])("takes %s by its bytes", async (_name, bytes, filename, contentType, extension) => {
      const reply = await upload(base, bytes, filename, "image/jpeg");
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({
        filename,
        content_type: contentType,
        bytes: bytes.length,
      });
      const url = String(reply.json["url"]);
      expect(url.endsWith(`.${extension}`)).toBe(true);
      const served = await fetch(url);
      expect(served.headers.get("content-type")).toBe(contentType);
      expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    });

    it("keeps concurrent uploads apart", async () => {
      const images = [1, 2, 3, 4, 5, 6].map((i) => png(i * 300_000 + i));
      const replies = await Promise.all(images.map((bytes, i) => upload(base, bytes, `${i}.png`)));
      const urls = replies.map((r) => String(r.json["url"]));
      expect(new Set(urls).size).toBe(images.length);
      for (const [i, reply] of replies.entries()) {
        expect(reply.json).toMatchObject({ filename: `${i}.png`, bytes: images[i]?.length });
        const served = Buffer.from(await (await fetch(urls[i] ?? "")).arrayBuffer());
        expect(served.equals(images[i] ?? Buffer.alloc(0))).toBe(true);
      }
    });

    it("accepts exactly 20971520 bytes and serves them back identical", async () => {
      const bytes = png(UPLOAD_MAX_BYTES);
      expect(bytes.length).toBe(20_971_520);
      const reply = await upload(base, bytes, "big.png");
      expect(reply.status).toBe(200);
      expect(reply.json["bytes"]).toBe(UPLOAD_MAX_BYTES);
      const served = await fetch(String(reply.json["url"]));
      expect(served.headers.get("content-length")).toBe(String(UPLOAD_MAX_BYTES));
      expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    });

    it("refuses 20971521 bytes with a 413 in the upload envelope, on a live connection", async () => {
      for (const bytes of [png(UPLOAD_MAX_BYTES + 1), gif(UPLOAD_MAX_BYTES + 1)]) {
        expect(bytes.length).toBe(20_971_521);
        await expectNothingStored(async () => {
          const reply = await upload(base, bytes, "big.png", "image/png");
          expectUploadError(reply, 413, "invalid_request_error", /20971520 bytes/);
          expect(reply.headers.get("connection")).not.toBe("close");
        });
      }
      // A valid 20 MB image with one byte glued on is over the cap too (not just "trailing data").
      await expectNothingStored(async () => {
        const reply = await upload(base, Buffer.concat([png(UPLOAD_MAX_BYTES), Buffer.from([0])]));
        expectUploadError(reply, 413, "invalid_request_error");
      });
    });

    const pngBytes = png();
    const corruptCrc = Buffer.from(pngBytes);
    corruptCrc[30] = (corruptCrc[30] ?? 0) ^ 0xff; // inside IHDR's data
    const riff = webp();
    const badRiff = Buffer.from(riff);
    badRiff.writeUInt32LE(riff.length, 4); // says 8 bytes more than there are
    const noIend = Buffer.concat([pngBytes.subarray(0, pngBytes.length - 12)]);
    const idatBeforeIhdr = Buffer.concat([
      pngBytes.subarray(0, 8),
      pngChunk("IDAT", Buffer.from([1, 2, 3])),
      pngBytes.subarray(8),
    ]);

    it.each([
      ["an empty file", new Uint8Array(0), /empty/],
      ["plain text", Buffer.from("hello, this is not an image"), /unsupported image type/],
      ["a PDF", Buffer.from("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n"), /unsupported/],
      [
        "an SVG",
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>'),
        /unsupported/,
      ],
      ["a BMP", Buffer.concat([Buffer.from("BM"), Buffer.alloc(60)]), /unsupported/],
      ["a truncated PNG", pngBytes.subarray(0, pngBytes.length - 5), /truncated/],
      ["a PNG without IEND", noIend, /truncated/],
      ["a PNG with a bad checksum", corruptCrc, /checksum/],
      ["a PNG whose first chunk is not IHDR", idatBeforeIhdr, /IHDR/],
      [
        "a PNG with a zip glued on",
        Buffer.concat([pngBytes, Buffer.from("PK\x03\x04rest-of-zip")]),
        /after the end/,
      ],
      [
        "a GIF with a page glued on",
        Buffer.concat([gif(), Buffer.from("<html><script>alert(1)</script>")]),
        /after the end/,
      ],
      ["a GIF without its trailer", gif().subarray(0, gif().length - 1), /truncated/],
      [
        "a JPEG with data after EOI",
        Buffer.concat([jpeg(), Buffer.from("<?php echo 1; ?>")]),
        /after the end/,
      ],
      ["a JPEG cut before EOI", jpeg().subarray(0, jpeg().length - 2), /truncated/],
      ["a WebP whose RIFF size is too large", badRiff, /truncated/],
      [
        "a WebP with bytes past its RIFF size",
        Buffer.concat([riff, Buffer.from("XXXX")]),
        /after the end/,
      ],
    ])("refuses %s with a 400, storing nothing", async (_name, bytes, message) => {
      await expectNothingStored(async () => {
        const reply = await upload(base, bytes, "image.png", "image/png");
        expectUploadError(reply, 400, "invalid_request_error", message);
      });
    });

    it("names the form parts it does not keep (purpose=dropped); strict refuses them, keeping nothing", async () => {
      const parts = [
        { name: "purpose", text: "vision" },
        { name: "file", bytes: png(), filename: "a.png" },
        { name: "thumbnail", bytes: png(), filename: "b.png" },
      ];
      const reply = await send(base, form(parts));
      expect(reply.status).toBe(200);
      expect(reply.headers.get("x-interlingua-warnings")).toBe("purpose=dropped,thumbnail=dropped");
      expect((await upload(base, png())).headers.get("x-interlingua-warnings")).toBeNull();
      await expectNothingStored(async () => {
        const strict = await send(base, form(parts), { ...auth(), "x-interlingua-strict": "true" });
        expectUploadError(strict, 400, "invalid_request_error", /purpose/);
      });
    });

    it("refuses bodies without a usable file field with a 400", async () => {
      const cases: [BodyInit, Record<string, string>, RegExp][] = [
        [form([{ name: "purpose", text: "x" }]), auth(), /missing file field/],
        [form([{ name: "image", bytes: png(), filename: "a.png" }]), auth(), /missing file field/],
        [form([{ name: "file", text: "not a file" }]), auth(), /must be a file/],
        [
          form([
            { name: "file", bytes: png(), filename: "a.png" },
            { name: "file", bytes: png(), filename: "b.png" },
          ]),
          auth(),
          /one file/,
        ],
        [
          JSON.stringify({ file: "x" }),
          { ...auth(), "content-type": "application/json" },
          /multipart/,
        ],
        [new Uint8Array(png()), { ...auth(), "content-type": "image/png" }, /multipart/],
        ["file=x", { ...auth(), "content-type": "application/x-www-form-urlencoded" }, /multipart/],
        ["x", { ...auth(), "content-type": "multipart/form-data" }, /content type/],
        [
          rawMultipart(
            "b0undary",
            [
              'Content-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n' +
                "\x89PNG",
            ],
            false,
          ),
          { ...auth(), "content-type": "multipart/form-data; boundary=b0undary" },
          /malformed|ended before/,
        ],
      ];
      for (const [body, headers, message] of cases) {
        await expectNothingStored(async () => {
          const reply = await send(base, body, headers);
          expectUploadError(reply, 400, "invalid_request_error", message);
        });
      }
    });

    it("refuses a missing or wrong key with a 401 after reading the body", async () => {
      await expectNothingStored(async () => {
        const bytes = png(5 * 1024 * 1024);
        const missing = await send(base, form([{ name: "file", bytes }]), {});
        expectUploadError(missing, 401, "authentication_error");
        const wrong = await send(base, form([{ name: "file", bytes }]), auth("sk-nope"));
        expectUploadError(wrong, 401, "authentication_error");
      });
    });

    it("answers a rate-limited key with a 429 that carries code 429", async () => {
      const first = await send(
        base,
        form([{ name: "file", bytes: png() }]),
        auth(RATE_LIMITED_KEY),
      );
      expect(first.status).toBe(200);
      await expectNothingStored(async () => {
        const second = await send(
          base,
          form([{ name: "file", bytes: png() }]),
          auth(RATE_LIMITED_KEY),
        );
        expectUploadError(second, 429, "rate_limit_error");
        expect(second.headers.get("retry-after")).not.toBeNull();
      });
    });

    it("reads its own upload URLs from the store (openOwnFile), not over the network", async () => {
      const bytes = jpeg();
      const { json } = await upload(base, bytes, "own.jpg");
      const url = String(json["url"]);
      const services = stack.gateway.services;
      const own = await openOwnFile(services, url);
      expect(own?.record.contentType).toBe("image/jpeg");
      expect(Buffer.from(await new Response(own?.body).arrayBuffer()).equals(bytes)).toBe(true);
      expect(ownFileKey(services, url)).toBe(keyOf(url));
      for (const other of [
        `https://elsewhere.example/files/${keyOf(url)}`,
        `${base}/files/../${keyOf(url)}`,
        `${base}/files/${keyOf(url)}?x=1`,
      ])
        expect(await openOwnFile(services, other)).toBeUndefined();
    });

    it("answers 404 for keys that are unknown or malformed", async () => {
      for (const path of [
        "/files/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.png",
        "/files/..%2F..%2Fetc%2Fpasswd",
        "/files/.hidden",
      ]) {
        const reply = await fetch(`${base}${path}`);
        expect(reply.status).toBe(404);
        await reply.arrayBuffer();
      }
    });

    it("serves until 72 h have passed, then 404; the sweeper deletes bytes and row", async () => {
      const { json } = await upload(base, gif(), "a.gif");
      const url = String(json["url"]);
      const key = keyOf(url);
      clock += UPLOAD_TTL_MS - 1000;
      const late = await fetch(url);
      expect(late.status).toBe(200);
      expect(late.headers.get("cache-control")).toBe("public, max-age=1, immutable");
      await late.arrayBuffer();
      clock += 1000;
      const gone = await fetch(url);
      expect(gone.status).toBe(404);
      expect(await gone.json()).toMatchObject({ error: { type: "not_found_error" } });
      // The sweeper runs every 50 ms in this stack: the row and the bytes go.
      await eventuallyAsync(
        async () => ({
          row: await stack.gateway.services.store.files.get(key),
          files: await stored(),
        }),
        (s) => s.row === undefined && !s.files.includes(key),
      );
    });
  });
}

describe("uploads: public_url and a failing store", () => {
  it("builds URLs on public_url, and answers 500 server_error when the store fails", async () => {
    const dir = await mkdtemp(join(tmpdir(), "interlingua-uploads-bad-"));
    // files_dir below a regular file: the store cannot create it, so every put fails.
    await writeFile(join(dir, "not-a-dir"), "x");
    const stack = await startStack({
      public_url: "https://cdn.example.test/gw/",
      files_dir: join(dir, "not-a-dir", "files"),
    });
    try {
      const reply = await upload(stack.gateway.url, png(), "a.png");
      expectUploadError(reply, 500, "server_error", /^failed to store the image$/);
      expect(stack.logText()).toContain("upload could not be stored");
      const { publicFileUrl } = await import("../src/files/public-file-url.ts");
      expect(publicFileUrl(stack.gateway.services, "abc.png")).toBe(
        "https://cdn.example.test/gw/files/abc.png",
      );
    } finally {
      await stack.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("uploads: body limits and broken connections", () => {
  let stack: Stack;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "interlingua-uploads-limits-"));
    // The general request-body limit is far below the upload cap: it must not apply here.
    stack = await startStack({ files_dir: dir, limits: { max_body_bytes: 1024 * 1024 } });
  });
  afterAll(async () => {
    await stack.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("takes an upload larger than limits.max_body_bytes", async () => {
    const reply = await upload(stack.gateway.url, png(5 * 1024 * 1024), "five.png");
    expect(reply.status).toBe(200);
    expect(reply.json["bytes"]).toBe(5 * 1024 * 1024);
  });

  it("keeps nothing from a client that disconnects mid-upload, and goes on serving", async () => {
    const before = await readdir(dir);
    const boundary = "cut-off-boundary";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n` +
        "Content-Type: image/png\r\n\r\n",
    );
    const image = png(8 * 1024 * 1024);
    const { port } = new URL(stack.gateway.url);
    const socket = connect(Number(port), "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    socket.on("error", () => {});
    socket.write(
      `POST /v1/uploads/images HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
        `Content-Length: ${head.length + image.length + 64}\r\n\r\n`,
    );
    socket.write(head);
    socket.write(image.subarray(0, 3 * 1024 * 1024));
    // Mid-upload the bytes are being written (under a temporary name)...
    await eventuallyAsync(
      () => readdir(dir),
      (names) => names.some((n) => n.startsWith(".put-")),
    );
    socket.destroy();
    // ...and once the client is gone, nothing of them is left.
    await eventuallyAsync(
      () => readdir(dir),
      (names) => names.length === before.length && names.every((n) => before.includes(n)),
    );
    const reply = await upload(stack.gateway.url, png(), "after.png");
    expect(reply.status).toBe(200);
  });
});

describe("uploads on S3, served by another instance", () => {
  it("stores in the bucket; a second gateway on the same database and bucket serves it", async () => {
    const s3 = await startLocalS3("interlingua-uploads", "gw");
    const dir = await mkdtemp(join(tmpdir(), "interlingua-uploads-s3-"));
    const shared = {
      databaseUrl: `sqlite:${join(dir, "shared.db")}`,
      files_dir: join(dir, "unused"),
      files: { s3: s3.config },
    };
    const a = await startStack(shared);
    const b = await startStack(shared);
    try {
      expect(a.gateway.services.fileStore.driver).toBe("s3");
      const bytes = png(6 * 1024 * 1024); // more than one S3 part
      const reply = await upload(a.gateway.url, bytes, "shared.png");
      expect(reply.status).toBe(200);
      const key = new URL(String(reply.json["url"])).pathname.split("/").pop() ?? "";
      const served = await fetch(`${b.gateway.url}/files/${key}`);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/png");
      expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
      // Refused uploads leave nothing in the bucket, and files_dir is never used.
      const tooBig = await upload(a.gateway.url, png(UPLOAD_MAX_BYTES + 1), "big.png");
      expectUploadError(tooBig, 413, "invalid_request_error");
      const bad = await upload(a.gateway.url, Buffer.concat([png(), Buffer.from("junk")]));
      expectUploadError(bad, 400, "invalid_request_error");
      const raw = new S3Client(s3ClientConfig(s3.config));
      const listed = await raw.send(new ListObjectsV2Command({ Bucket: "interlingua-uploads" }));
      raw.destroy();
      expect((listed.Contents ?? []).map((o) => o.Key)).toEqual([`gw/${key}`]);
      expect(await readdir(dir)).not.toContain("unused");
    } finally {
      await a.close();
      await b.close();
      await s3.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
