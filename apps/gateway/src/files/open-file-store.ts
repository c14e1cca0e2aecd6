import type { GatewayConfig } from "../config/config-schema.ts";
import type { FileStore } from "./file-store.ts";
import { LocalFileStore } from "./local-file-store.ts";
import { S3FileStore } from "./s3-file-store.ts";

/** The store the config names: `files.s3` when set, else the directory `files_dir`. */
export function openFileStore(config: Pick<GatewayConfig, "files" | "files_dir">): FileStore {
  const s3 = config.files?.s3;
  return s3 === undefined ? new LocalFileStore(config.files_dir) : new S3FileStore(s3);
}
