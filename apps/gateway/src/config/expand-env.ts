import { readFileSync } from "node:fs";
import { formatIssuePath } from "./format-issue-path.ts";

// Secrets stay out of the config file: a string value may name environment variables as
// `${NAME}`, each replaced by the variable's value or, when only `NAME_FILE` is set, by the
// contents of that file (Docker and Kubernetes secrets), without its trailing newline.
// `$${` writes a literal `${`.

const REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export type ExpandResult = { ok: true; value: unknown } | { ok: false; errors: string[] };

type Env = Readonly<Record<string, string | undefined>>;

/** `value` with every `${NAME}` in its strings resolved; each unresolved one is an error. */
export function expandEnv(value: unknown, env: Env = process.env): ExpandResult {
  const errors: string[] = [];
  const walk = (node: unknown, path: (string | number)[]): unknown => {
    if (typeof node === "string") return expandString(node, path, env, errors);
    if (Array.isArray(node)) return node.map((item, i) => walk(item, [...path, i]));
    if (node !== null && typeof node === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(node)) out[key] = walk(item, [...path, key]);
      return out;
    }
    return node;
  };
  const expanded = walk(value, []);
  return errors.length === 0 ? { ok: true, value: expanded } : { ok: false, errors };
}

function expandString(text: string, path: (string | number)[], env: Env, errors: string[]): string {
  if (!text.includes("${")) return text;
  return text.replace(REFERENCE, (match, name: string | undefined) => {
    if (name === undefined) return "${";
    const direct = env[name];
    if (direct !== undefined) return direct;
    const file = env[`${name}_FILE`];
    if (file !== undefined && file !== "") {
      try {
        return readFileSync(file, "utf8").replace(/\r?\n$/, "");
      } catch (error) {
        errors.push(
          `${formatIssuePath(path)}: cannot read ${name}_FILE (${file}): ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        );
        return match;
      }
    }
    errors.push(`${formatIssuePath(path)}: \${${name}} is not set (set ${name} or ${name}_FILE)`);
    return match;
  });
}
