import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { S3FilesConfig } from "../src/config/config-schema.ts";

// An in-process S3-compatible server (s3rver, a dev dependency) on a random loopback port,
// keeping its objects in a temporary directory, with one bucket made ready.

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverCtor = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverInstance;
// s3rver ships no types: the constructor is described above.
const S3rver = createRequire(import.meta.url)("s3rver") as S3rverCtor;

export interface LocalS3 {
  /** A `files.s3` config for the bucket (path-style, s3rver's fixed credentials). */
  readonly config: S3FilesConfig;
  close(): Promise<void>;
}

export async function startLocalS3(bucket: string, prefix?: string): Promise<LocalS3> {
  const dir = await mkdtemp(join(tmpdir(), "interlingua-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    config: {
      bucket,
      endpoint: `http://127.0.0.1:${port}`,
      region: "us-east-1",
      ...(prefix === undefined ? {} : { prefix }),
      force_path_style: true,
      access_key_id: "S3RVER",
      secret_access_key: "S3RVER",
    },
    async close() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
