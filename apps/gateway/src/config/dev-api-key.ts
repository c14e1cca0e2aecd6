import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { TokenConfig, UserConfig } from "./config-schema.ts";

export const DEV_KEY_FILE = "dev-api-key";

/**
 * The key of a config without tokens: random on first start and kept in the data directory, so
 * the key printed at start stays valid across restarts without ever being a known constant.
 */
export async function loadOrCreateDevApiKey(dataDir: string): Promise<string> {
  const path = join(dataDir, DEV_KEY_FILE);
  try {
    const existing = (await readFile(path, "utf8")).trim();
    if (existing !== "") return existing;
  } catch {
    // First start: create it below.
  }
  const key = `sk-dev-${randomBytes(24).toString("base64url")}`;
  await mkdir(dataDir, { recursive: true });
  await writeFile(path, `${key}\n`, { mode: 0o600 });
  return key;
}

export function devToken(key: string): { user: UserConfig; token: TokenConfig } {
  return {
    user: { id: "dev", quota: 0, unlimited: true },
    token: { key, user: "dev", name: "dev", unlimited: true },
  };
}
