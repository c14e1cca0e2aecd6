import { readdirSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

// The bundle budget CI enforces: everything the dashboard's first page loads (its scripts and
// styles), gzip-compressed. `pnpm build` runs before this test (turbo: test depends on build).
const BUDGET_GZIP_BYTES = 60 * 1024;

const dist = new URL("../dist/", import.meta.url);
const assets = new URL("./assets/", dist);

describe("the built dashboard", () => {
  const html = readFileSync(new URL("./index.html", dist), "utf8");
  const files = readdirSync(assets).filter((f) => /\.(js|css)$/.test(f));

  it("stays within its gzip budget", () => {
    const sizes = files.map((f) => gzipSync(readFileSync(new URL(f, assets)), { level: 9 }).length);
    const total = sizes.reduce((a, b) => a + b, 0);
    console.log(
      `dashboard bundle: ${files.length} files, ${total} bytes gzip (budget ${BUDGET_GZIP_BYTES})`,
    );
    expect(files.some((f) => f.endsWith(".js"))).toBe(true);
    expect(total).toBeGreaterThan(1000);
    expect(total).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
  });

  it("loads everything from the gateway, under /dashboard/assets with hashed names", () => {
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(ref).toMatch(/^\/dashboard\/assets\/[\w-]+-[\w-]{8}\.(js|css)$/);
    for (const file of files) {
      const text = readFileSync(new URL(file, assets), "utf8");
      // No CDN: no script, style or font is fetched from another origin.
      expect(text).not.toMatch(/https?:\/\/(cdn|unpkg|fonts\.googleapis|jsdelivr)/);
    }
  });
});
