import { defineConfig } from "vite";

// Served by the gateway under /dashboard/; hashed file names under assets/ are cached for a year.
export default defineConfig({
  base: "/dashboard/",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  // `pnpm --filter @interlingua/dashboard dev`: the page from Vite, the API from a gateway on :8080.
  server: {
    proxy: {
      "/api": "http://127.0.0.1:8080",
      "/v1": "http://127.0.0.1:8080",
      "/files": "http://127.0.0.1:8080",
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsDir: "assets",
    target: "es2022",
    sourcemap: false,
  },
});
