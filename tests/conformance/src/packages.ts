import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
export const packagesDir = join(repoRoot, "packages");

export interface PackageInfo {
  dir: string;
  name: string;
  /** Subpath -> condition -> file, as declared in package.json `exports`. */
  exports: Record<string, unknown>;
}

/** Every publishable package under packages/. */
export function publishablePackages(): PackageInfo[] {
  return readdirSync(packagesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => {
      const dir = join(packagesDir, d.name);
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      return { dir, name: manifest.name as string, exports: manifest.exports ?? {} };
    });
}

/** The importable subpaths of a package (`.`, `./testing`, ...), excluding package.json. */
export function subpaths(pkg: PackageInfo): string[] {
  return Object.keys(pkg.exports).filter((s) => !s.endsWith("package.json"));
}
