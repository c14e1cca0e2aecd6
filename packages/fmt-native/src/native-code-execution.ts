/**
 * Gemini's code-execution parts (`executableCode`, `codeExecutionResult`) have no canonical part:
 * they are carried as text a reader sees as what it is, a fenced block of the code and one of its
 * output (its outcome named unless it is OUTCOME_OK), rather than dropped or failing the reply.
 */
export function codeExecutionText(part: {
  executableCode?: unknown;
  codeExecutionResult?: unknown;
}): string | undefined {
  const code = record(part.executableCode);
  if (code !== undefined && typeof code.code === "string") {
    const language = typeof code.language === "string" ? code.language.toLowerCase() : "";
    return `\n\`\`\`${language === "language_unspecified" ? "" : language}\n${code.code}\n\`\`\`\n`;
  }
  const result = record(part.codeExecutionResult);
  if (result !== undefined) {
    const outcome =
      typeof result.outcome === "string" && result.outcome !== "OUTCOME_OK"
        ? `${result.outcome}\n`
        : "";
    const output = typeof result.output === "string" ? result.output : "";
    return `\n\`\`\`output\n${outcome}${output}\n\`\`\`\n`;
  }
  return undefined;
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
