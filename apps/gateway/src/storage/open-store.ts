import { openPostgres, type PostgresOptions } from "./postgres-connection.ts";
import { SqlStore } from "./sql-store.ts";
import { openSqlite } from "./sqlite-connection.ts";
import type { Store } from "./store.ts";

export interface OpenStoreOptions extends PostgresOptions {
  /** Apply pending migrations (default true); `interlingua migrate` reports them itself. */
  readonly migrate?: boolean;
}

/**
 * A Postgres URL's own `schema` parameter (`postgres://host/db?schema=name`): every connection
 * works in that schema, created when missing, so several gateways (or test runs) can share one
 * database without sharing tables. pg does not know the parameter, so it is taken off the URL.
 */
function splitSchema(databaseUrl: string): { url: string; schema?: string } {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get("schema");
  if (schema === null) return { url: databaseUrl };
  url.searchParams.delete("schema");
  return { url: url.toString(), schema };
}

/**
 * The store named by `database_url`: `sqlite:<path>` (`sqlite::memory:` for a throwaway one) or
 * `postgres://` / `postgresql://` (optionally `?schema=name`). Migrated before it is returned.
 */
export async function openStore(
  databaseUrl: string,
  options: OpenStoreOptions = {},
): Promise<Store> {
  let store: Store;
  if (databaseUrl.startsWith("sqlite:")) {
    store = new SqlStore(openSqlite(databaseUrl.slice("sqlite:".length)));
  } else if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    const { url, schema } = splitSchema(databaseUrl);
    store = new SqlStore(
      await openPostgres(url, schema === undefined ? options : { ...options, schema }),
    );
  } else {
    throw new Error(`database_url must start with sqlite: or postgres://, got ${databaseUrl}`);
  }
  if (options.migrate !== false) await store.migrate();
  return store;
}
