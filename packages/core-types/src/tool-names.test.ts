import { describe, expect, it } from "vitest";
import type { Request } from "./request.js";
import { renameTools, type ToolNameRule } from "./tool-names.js";

const rule: ToolNameRule = { valid: /^[a-z_]+$/, invalid: /[^a-z_]/g, max: 64 };

describe("renameTools", () => {
  it("renames the names of an allowed list as it renames the tools", () => {
    const request: Request = {
      model: "m",
      system: [],
      messages: [{ role: "user", parts: [{ type: "text", text: "x" }] }],
      sampling: {},
      tools: [{ type: "function", name: "a.b", parameters: { type: "object" } }],
      toolChoice: { type: "required", allowed: ["a.b"] },
      stream: false,
    };
    const { request: renamed, original } = renameTools(request, rule);
    const tool = renamed.tools[0] as { name: string };
    expect(tool.name).not.toBe("a.b");
    expect(renamed.toolChoice).toEqual({ type: "required", allowed: [tool.name] });
    expect(original.get(tool.name)).toBe("a.b");
  });
});
