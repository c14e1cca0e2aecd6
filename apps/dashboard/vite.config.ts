import { defineConfig } from "vite";

// Served by the gateway under /dashboard/; hashed file names under assets/ are cached for a year.
export default defineConfig({
  base: "/dashboard/",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsDir: "assets",
    target: "es2022",
    sourcemap: false,
  },
});
