import { describe, expect, it } from "vitest";
import { redactSecrets } from "./redact-secrets.js";

describe("redactSecrets", () => {
  it.each([
    [
      "Incorrect API key provided: sk-abc12***************wxyz.",
      "Incorrect API key provided: [redacted].",
    ],
    ["key sk-ant-api03-AbCdEf_123-xyz is invalid", "key [redacted] is invalid"],
    [
      "GET https://generativelanguage.googleapis.com/v1beta/models?key=AIzaSyA-1234567890abcdefghijklmnopqrstu failed",
      "GET https://generativelanguage.googleapis.com/v1beta/models?key=[redacted] failed",
    ],
    ["Authorization: Bearer abc.def.ghi", "Authorization: [redacted] [redacted]"],
    ["header x-api-key: k-123", "header x-api-key: [redacted]"],
    [
      "connect to postgres://admin:hunter2@db.internal:5432/prod failed",
      "connect to postgres://[redacted]@db.internal:5432/prod failed",
    ],
    [
      "GET https://user:p%40ss@files.example.com/a.png: 403",
      "GET https://[redacted]@files.example.com/a.png: 403",
    ],
  ])("%s", (text, redacted) => {
    expect(redactSecrets(text)).toBe(redacted);
  });

  it.each([
    "max_tokens: must be at most 8192",
    "messages.0.content: Input should be a valid list",
    "task-1234567890 failed",
    "Invalid key: 'foo' in response_format",
    "risk-assessment is not a model",
    "see https://platform.openai.com/account/api-keys or mailto:help@example.com",
  ])("leaves ordinary messages alone: %s", (text) => {
    expect(redactSecrets(text)).toBe(text);
  });
});
