import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256, sha256Hex, toHex } from "./sha256.js";

const bytes = (text: string) => new TextEncoder().encode(text);
const nodeDigest = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

describe("sha256", () => {
  // FIPS 180-4 examples (NIST CSRC "SHA256.pdf") and the long-message vector of NIST's set.
  it.each([
    ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
    [
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    ],
    [
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
    ],
  ])("%j hashes to the published digest", (message, digest) => {
    expect(toHex(sha256(bytes(message)))).toBe(digest);
    expect(sha256Hex(message)).toBe(digest);
  });

  it("one million 'a' hashes to the published digest", () => {
    expect(toHex(sha256(new Uint8Array(1_000_000).fill(0x61)))).toBe(
      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
    );
  });

  it("every length around the padding edges (0..200 bytes) agrees with node:crypto", () => {
    for (let n = 0; n <= 200; n++) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      expect(toHex(sha256(data))).toBe(nodeDigest(data));
    }
  });

  it("agrees with node:crypto on arbitrary bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (data) => {
        expect(toHex(sha256(data))).toBe(nodeDigest(data));
      }),
      { numRuns: 300 },
    );
  });

  it("agrees with node:crypto on arbitrary text, UTF-8 encoded", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 300 }), (value) => {
        expect(sha256Hex(value)).toBe(createHash("sha256").update(value, "utf8").digest("hex"));
      }),
    );
  });
});
