import { describe, expect, it } from "vitest";
import { readCredential } from "./credential-sources.ts";
import { TokenStore } from "./token-store.ts";

const users = [{ id: "alice", quota: 10, unlimited: false }];

describe("TokenStore", () => {
  const store = new TokenStore(
    [
      { key: "sk-alice-1", user: "alice", quota: 5, unlimited: false },
      { key: "sk-alice-2", user: "alice", unlimited: true, name: "ci", models: ["txtA-5"] },
    ],
    users,
  );

  it("finds a token by its key and gives a loggable id that is not the key", () => {
    const token = store.lookup("sk-alice-1");
    expect(token?.user.id).toBe("alice");
    expect(token?.id).toMatch(/^key:[0-9a-f]{12}$/);
    expect(token?.id).not.toContain("sk-alice-1");
    expect(store.lookup("sk-alice-2")?.id).toBe("ci");
    expect([...(store.lookup("sk-alice-2")?.models ?? [])]).toEqual(["txtA-5"]);
  });

  it("rejects unknown keys and near misses", () => {
    expect(store.lookup("sk-alice-3")).toBeUndefined();
    expect(store.lookup("sk-alice-1 ")).toBeUndefined();
    expect(store.lookup("")).toBeUndefined();
  });
});

describe("readCredential", () => {
  const url = new URL("http://h/v1beta/models/m:generateContent?key=from-query");
  const plain = new URL("http://h/v1/chat/completions");

  it("reads Bearer everywhere, case-insensitively", () => {
    const headers = new Headers({ authorization: "bearer  sk-1 " });
    expect(readCredential("standard", headers, plain)).toBe("sk-1");
    expect(readCredential("messages", headers, plain)).toBe("sk-1");
    expect(readCredential("native", headers, plain)).toBe("sk-1");
  });

  it("reads x-api-key only on messages", () => {
    const headers = new Headers({ "x-api-key": "sk-2" });
    expect(readCredential("messages", headers, plain)).toBe("sk-2");
    expect(readCredential("standard", headers, plain)).toBeUndefined();
    expect(readCredential("native", headers, plain)).toBeUndefined();
  });

  it("reads both spellings of the vendor key header and ?key= only on native", () => {
    expect(readCredential("native", new Headers({ "x-goog-api-key": "g" }), plain)).toBe("g");
    expect(readCredential("native", new Headers({ "x-vendor-api-key": "v" }), plain)).toBe("v");
    expect(readCredential("native", new Headers(), url)).toBe("from-query");
    expect(readCredential("standard", new Headers({ "x-goog-api-key": "g" }), url)).toBeUndefined();
    expect(readCredential("messages", new Headers(), url)).toBeUndefined();
  });

  it("ignores other schemes and empty values", () => {
    expect(
      readCredential("standard", new Headers({ authorization: "Basic abc" }), plain),
    ).toBeUndefined();
    expect(
      readCredential("standard", new Headers({ authorization: "Bearer " }), plain),
    ).toBeUndefined();
  });
});
