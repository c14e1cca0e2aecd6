import type { Tool, Warning } from "@interlingua/core-types";
import type { ResponsesTool } from "./responses-api.js";

/** SPEC.md's remote_mcp default; the canonical tool always carries an explicit timeout. */
export const defaultRemoteMcpTimeoutSeconds = 30;

/** A function tool without `parameters` takes no arguments. */
export const emptyParameters = (): Record<string, unknown> => ({ type: "object", properties: {} });

export function toolFromResponses(tool: ResponsesTool): Tool {
  switch (tool.type) {
    case "function": {
      // The schema guarantees one of the two shapes is complete.
      const fn = tool.function ?? {
        name: tool.name as string,
        description: tool.description,
        parameters: tool.parameters,
        strict: tool.strict,
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
      const { type, ...options } = tool;
      return Object.keys(options).length > 0 ? { type, options } : { type };
    }
    case "remote_mcp": {
      const mcp = tool.remote_mcp;
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
export function toolToResponses(
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
      warn({
        type: "dropped",
        feature: "tools.provider",
        message: `${at}: the ${tool.provider} tool ${tool.name} has no responses equivalent`,
      });
      return undefined;
  }
}
