import type { Tool, Warning } from "@interlingua/core-types";
import { isKnownResponsesTool, type ResponsesTool } from "./responses-api.js";

/** docs/api-reference.md's remote_mcp default; the canonical tool always carries an explicit timeout. */
export const defaultRemoteMcpTimeoutSeconds = 30;

/** A function tool without `parameters` takes no arguments. */
export const emptyParameters = (): Record<string, unknown> => ({ type: "object", properties: {} });

export function parseResponsesTool(tool: ResponsesTool): Tool {
  if (!isKnownResponsesTool(tool)) {
    // custom, namespace, tool_search, ...: the Responses API's own, carried whole (client-tools.ts).
    const { type, ...options } = tool;
    return { type: "provider", provider: "openai", name: type, options };
  }
  const known = tool;
  switch (known.type) {
    case "function": {
      // The schema guarantees one of the two shapes is complete.
      const fn = known.function ?? {
        name: known.name as string,
        description: known.description,
        parameters: known.parameters,
        strict: known.strict,
      };
      const out: Tool = {
        type: "function",
        name: fn.name,
        parameters: fn.parameters ?? emptyParameters(),
      };
      // A flat tool may come without a description; the canonical tool then has none.
      if (typeof fn.description === "string") out.description = fn.description;
      if (typeof fn.strict === "boolean") out.strict = fn.strict;
      return out;
    }
    case "web_search":
    case "file_search": {
      const { type, ...options } = known;
      return Object.keys(options).length > 0 ? { type, options } : { type };
    }
    case "remote_mcp": {
      const mcp = known.remote_mcp;
      const out: Tool = {
        type: "remote_mcp",
        url: mcp.url,
        timeout: mcp.timeout ?? defaultRemoteMcpTimeoutSeconds,
      };
      if (mcp.auth_token !== undefined) out.authToken = mcp.auth_token;
      return out;
    }
  }
}

/** Rendered in the spec's nested function shape; provider-specific tools cannot be expressed. */
export function renderResponsesTool(
  tool: Tool,
  at: string,
  warn: (warning: Warning) => void,
): ResponsesTool | undefined {
  switch (tool.type) {
    case "function": {
      if (tool.cacheControl !== undefined) {
        warn({
          type: "dropped",
          feature: "tools.cacheControl",
          message: `${at}.cacheControl: the responses format has no cache boundaries`,
        });
      }
      if (tool.description === undefined) {
        warn({
          type: "mapped",
          feature: "tools.description",
          message: `${at}.description: the responses format requires one; sent as ""`,
        });
      }
      const fn: NonNullable<Extract<ResponsesTool, { type: "function" }>["function"]> = {
        name: tool.name,
        description: tool.description ?? "",
        parameters: tool.parameters,
      };
      if (tool.strict !== undefined) fn.strict = tool.strict;
      return { type: "function", function: fn };
    }
    case "web_search":
    case "file_search":
      return { ...tool.options, type: tool.type };
    case "remote_mcp": {
      const mcp: Extract<ResponsesTool, { type: "remote_mcp" }>["remote_mcp"] = {
        url: tool.url,
        timeout: tool.timeout,
      };
      if (tool.authToken !== undefined) mcp.auth_token = tool.authToken;
      return { type: "remote_mcp", remote_mcp: mcp };
    }
    case "provider":
      // The Responses API's own tools go back as they came.
      if (tool.provider === "openai") return { ...tool.options, type: tool.name } as ResponsesTool;
      warn({
        type: "dropped",
        feature: "tools.provider",
        message: `${at}: the ${tool.provider} tool ${tool.name} has no responses equivalent`,
      });
      return undefined;
  }
}
