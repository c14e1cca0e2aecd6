import { keyHash, keyHint, newApiKey } from "./auth/key-hash.ts";
import { seedStore } from "./auth/seed-store.ts";
import type { GatewayConfig } from "./config/config-schema.ts";
import type { CliIo } from "./serve-command.ts";
import { openStore } from "./storage/open-store.ts";

/** `interlingua migrate`: applies pending migrations (openStore migrates) and says which. */
export async function migrateCommand(config: GatewayConfig, io: CliIo): Promise<number> {
  const store = await openStore(config.database_url, { migrate: false });
  try {
    const applied = await store.migrate();
    io.out(
      applied.length === 0
        ? `${store.driver}: schema up to date`
        : `${store.driver}: applied migration${applied.length === 1 ? "" : "s"} ${applied.join(", ")}`,
    );
    return 0;
  } finally {
    await store.close();
  }
}

/**
 * `interlingua token create --user U (--quota N | --unlimited) [--name N]`: prints the new key
 * once (only its hash is stored). The config's users are applied first, so a user declared
 * there can get a token before the gateway ever ran.
 */
export async function createTokenCommand(
  config: GatewayConfig,
  options: Readonly<Record<string, unknown>>,
  io: CliIo,
): Promise<number> {
  const user = options["user"];
  const quotaText = options["quota"];
  const unlimited = options["unlimited"] === true;
  if (typeof user !== "string" || user === "") {
    io.err("token create: --user <id> is required");
    return 2;
  }
  if (unlimited === (quotaText !== undefined)) {
    io.err("token create: give exactly one of --quota <credits> and --unlimited");
    return 2;
  }
  const quota = quotaText === undefined ? 0 : Number(quotaText);
  if (!Number.isSafeInteger(quota) || quota < 0) {
    io.err(`token create: --quota must be a whole number of credits, got "${String(quotaText)}"`);
    return 2;
  }
  const store = await openStore(config.database_url);
  try {
    await seedStore(store, config);
    if ((await store.getUser(user)) === undefined) {
      io.err(`token create: unknown user "${user}" (declare it under users in the config)`);
      return 1;
    }
    const key = newApiKey();
    const row = await store.createToken({
      keyHash: keyHash(key),
      keyHint: keyHint(key),
      name: typeof options["name"] === "string" ? options["name"] : `cli-${Date.now()}`,
      userId: user,
      quota,
      unlimited,
      source: "api",
    });
    io.out(`created token ${row.id} "${row.name}" for ${user}`);
    io.out(`API key (shown once): ${key}`);
    return 0;
  } finally {
    await store.close();
  }
}
