import { createHash, type Hash } from "node:crypto";

/**
 * A running SHA-256 over the pieces of a prompt, whose digest can be read at any point without
 * ending it: every prefix of a prompt gets its own key in one pass over the prompt. The scope
 * (API key, model, ...) is hashed first, so equal prefixes under different scopes never collide.
 */
export type PrefixHasher = {
  update(piece: string): void;
  /** The key of everything fed so far. */
  digest(): string;
};

export function prefixHasher(scope: string): PrefixHasher {
  const hash: Hash = createHash("sha256");
  // Length-prefixed, so no scope can be spelled as another scope plus a piece.
  hash.update(`${scope.length}:${scope}\u0000`);
  return {
    update: (piece) => {
      hash.update(piece);
    },
    digest: () => hash.copy().digest("hex"),
  };
}
