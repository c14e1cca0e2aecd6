import { readFile, stat } from "node:fs/promises";
import { extname, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { dashboardDist } from "@interlingua/dashboard";
import type { Hono } from "hono";
import type { AppEnv } from "../contract/app-env.ts";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
  ".woff2": "font/woff2",
};

// Everything the page loads comes from the gateway; result images may live on a file store.
const CSP = [
  "default-src 'self'",
  "img-src 'self' data: blob: https: http:",
  "style-src 'self'",
  "script-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

/**
 * `GET /dashboard/*`: the browser dashboard built by `pnpm build` (apps/dashboard), from the
 * gateway itself. Hashed assets (`/dashboard/assets/*`) are cached for a year; every other path
 * is the single page (`index.html`, revalidated each time), so deep links work. The dashboard
 * only calls the public API (`/api/*`, `/v1/*`) with the key its user signs in with.
 */
export function mountDashboardRoutes(app: Hono<AppEnv>, root = fileURLToPath(dashboardDist)): void {
  const base = resolve(root);
  const headers = (type: string, cache: string) => ({
    "content-type": type,
    "cache-control": cache,
    "x-content-type-options": "nosniff",
    "content-security-policy": CSP,
    "referrer-policy": "no-referrer",
  });
  const page = async () => {
    try {
      return new Response(await readFile(resolve(base, "index.html")), {
        headers: headers(TYPES[".html"]!, "no-cache"),
      });
    } catch {
      return new Response("The dashboard is not built: run `pnpm build`.\n", {
        status: 503,
        headers: { "content-type": "text/plain; charset=utf-8" },
      });
    }
  };
  app.get("/dashboard", (c) => c.redirect("/dashboard/", 301));
  app.get("/dashboard/*", async (c) => {
    let rest: string;
    try {
      rest = decodeURIComponent(c.req.path.slice("/dashboard/".length));
    } catch {
      return c.notFound(); // a malformed escape names no file
    }
    const ext = extname(rest);
    if (rest === "" || ext === "" || ext === ".html") return page();
    const file = resolve(base, rest);
    const type = TYPES[ext];
    if (!file.startsWith(base + sep) || type === undefined) return c.notFound();
    try {
      if (!(await stat(file)).isFile()) return c.notFound();
      const hashed = rest.startsWith("assets/");
      return new Response(await readFile(file), {
        headers: headers(type, hashed ? "public, max-age=31536000, immutable" : "no-cache"),
      });
    } catch {
      return c.notFound();
    }
  });
}
