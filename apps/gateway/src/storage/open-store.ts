import { openPostgres, type PostgresOptions } from "./postgres-connection.ts";
import { SqlStore } from "./sql-store.ts";
import { openSqlite } from "./sqlite-connection.ts";
import type { Store } from "./store.ts";

export interface OpenStoreOptions extends PostgresOptions {
  /** Apply pending migrations (default true); `interlingua migrate` reports them itself. */
  readonly migrate?: boolean;
}

/**
 * The store named by `database_url`: `sqlite:<path>` (`sqlite::memory:` for a throwaway one) or
 * `postgres://` / `postgresql://`. Migrated before it is returned.
 */
export async function openStore(
  databaseUrl: string,
  options: OpenStoreOptions = {},
): Promise<Store> {
  let store: Store;
  if (databaseUrl.startsWith("sqlite:")) {
    store = new SqlStore(openSqlite(databaseUrl.slice("sqlite:".length)));
  } else if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    store = new SqlStore(await openPostgres(databaseUrl, options));
  } else {
    throw new Error(`database_url must start with sqlite: or postgres://, got ${databaseUrl}`);
  }
  if (options.migrate !== false) await store.migrate();
  return store;
}
