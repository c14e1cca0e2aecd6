import { hash, randomBytes } from "node:crypto";

/** Keys are stored and looked up only as their SHA-256 (hex). One-shot `hash`: it runs per request. */
export const keyHash = (key: string): string => hash("sha256", key, "hex");

/** Enough of a key for its owner to recognise it in a list; too little to use. */
export const keyHint = (key: string): string =>
  key.length <= 12 ? `${key.slice(0, 3)}…` : `${key.slice(0, 6)}…${key.slice(-4)}`;

/** A new API key: `sk-` and 32 random bytes, base64url. */
export const newApiKey = (): string => `sk-${randomBytes(32).toString("base64url")}`;
