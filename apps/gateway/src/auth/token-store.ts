import { hash, timingSafeEqual } from "node:crypto";
import type { TokenConfig, UserConfig } from "../config/config-schema.ts";

export interface AuthenticatedToken {
  /** A loggable id: the token's name, or a short prefix of the key's hash. Never the key. */
  readonly id: string;
  readonly user: UserConfig;
  readonly config: TokenConfig;
  /** Gateway model ids this token may use; undefined means all. */
  readonly models: ReadonlySet<string> | undefined;
}

interface Entry {
  hash: Buffer;
  token: AuthenticatedToken;
}

// One-shot `hash` (no Hash object per call): this runs on every request.
const sha256 = (key: string): Buffer => hash("sha256", key, "buffer");

/**
 * Keys are held only as SHA-256 hashes. The map lookup finds a candidate by hash; the final
 * comparison is constant-time so a lookup never reveals how much of a hash matched.
 */
export class TokenStore {
  readonly #byHash = new Map<string, Entry>();

  constructor(tokens: readonly TokenConfig[], users: readonly UserConfig[]) {
    const usersById = new Map(users.map((u) => [u.id, u]));
    for (const config of tokens) {
      const digest = sha256(config.key);
      const user = usersById.get(config.user);
      if (user === undefined) throw new Error(`token for unknown user ${config.user}`);
      const token: AuthenticatedToken = {
        id: config.name ?? `key:${digest.toString("hex").slice(0, 12)}`,
        user,
        config,
        models: config.models === undefined ? undefined : new Set(config.models),
      };
      this.#byHash.set(digest.toString("hex"), { hash: digest, token });
    }
  }

  get size(): number {
    return this.#byHash.size;
  }

  lookup(key: string): AuthenticatedToken | undefined {
    const digest = sha256(key);
    const entry = this.#byHash.get(digest.toString("hex"));
    if (entry === undefined || !timingSafeEqual(entry.hash, digest)) return undefined;
    return entry.token;
  }
}
