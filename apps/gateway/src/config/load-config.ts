import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { parseDocument } from "yaml";
import { configSchema, type GatewayConfig } from "./config-schema.ts";
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

/** Parses YAML or JSON text (JSON by extension, otherwise YAML, which also reads JSON). */
export function parseConfigText(text: string, fileName = "config.yaml"): ConfigResult {
  if (extname(fileName).toLowerCase() === ".json") {
    try {
      return validateConfig(JSON.parse(text));
    } catch (error) {
      return { ok: false, errors: [`${fileName}: invalid JSON: ${(error as Error).message}`] };
    }
  }
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) {
    return { ok: false, errors: doc.errors.map((e) => `${fileName}: ${e.message}`) };
  }
  return validateConfig(doc.toJS());
}

export async function loadConfigFile(path: string): Promise<ConfigResult> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    return { ok: false, errors: [`${path}: cannot read: ${(error as Error).message}`] };
  }
  return parseConfigText(text, path);
}
