import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { parseDocument } from "yaml";
import { configSchema, type GatewayConfig } from "./config-schema.ts";
import { expandEnv } from "./expand-env.ts";
import { formatIssuePath } from "./format-issue-path.ts";

export type ConfigResult = { ok: true; config: GatewayConfig } | { ok: false; errors: string[] };

/** Validates an already-parsed config value; every error names its path. */
export function validateConfig(value: unknown): ConfigResult {
  const result = configSchema.safeParse(value ?? {});
  if (result.success) return { ok: true, config: result.data };
  return {
    ok: false,
    errors: result.error.issues.map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`),
  };
}

/** `${NAME}` references resolved from `env` (see expand-env.ts), then validated. */
function validateExpanded(value: unknown, env: NodeJS.ProcessEnv): ConfigResult {
  const expanded = expandEnv(value, env);
  return expanded.ok ? validateConfig(expanded.value) : expanded;
}

/**
 * Parses YAML or JSON text (JSON by extension, otherwise YAML, which also reads JSON); string
 * values may name environment variables as `${NAME}` (or a file through `NAME_FILE`).
 */
export function parseConfigText(
  text: string,
  fileName = "config.yaml",
  env: NodeJS.ProcessEnv = process.env,
): ConfigResult {
  if (extname(fileName).toLowerCase() === ".json") {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return { ok: false, errors: [`${fileName}: invalid JSON: ${(error as Error).message}`] };
    }
    return validateExpanded(value, env);
  }
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) {
    return { ok: false, errors: doc.errors.map((e) => `${fileName}: ${e.message}`) };
  }
  return validateExpanded(doc.toJS(), env);
}

export async function loadConfigFile(
  path: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ConfigResult> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    return { ok: false, errors: [`${path}: cannot read: ${(error as Error).message}`] };
  }
  return parseConfigText(text, path, env);
}
