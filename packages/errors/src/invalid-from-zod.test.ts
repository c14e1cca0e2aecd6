import { describe, expect, it } from "vitest";
import * as z from "zod";
import {
  FIELD_REQUIRED,
  formatFieldPath,
  formatZodIssue,
  invalidField,
  invalidFromZod,
} from "./invalid-from-zod.js";

const errorOf = (schema: z.ZodType, value: unknown): z.ZodError => {
  const result = schema.safeParse(value);
  if (result.success) throw new Error("expected a failure");
  return result.error;
};

const part = z.union([
  z.string(),
  z.array(z.object({ type: z.literal("text"), text: z.string() })),
]);
const body = z.object({
  model: z.string(),
  messages: z.array(z.object({ role: z.string(), content: part })),
  tool_choice: z.union([z.literal("auto"), z.literal("none")]).optional(),
  block: z
    .discriminatedUnion("type", [
      z.object({ type: z.literal("x"), a: z.string() }),
      z.object({ type: z.literal("y") }),
    ])
    .optional(),
});

describe("formatFieldPath", () => {
  it("writes indexes in brackets and keys after dots", () => {
    expect(formatFieldPath(["messages", 2, "content", 0, "text"])).toBe(
      "messages[2].content[0].text",
    );
    expect(formatFieldPath([0, "a"])).toBe("[0].a");
    expect(formatFieldPath([])).toBe("");
  });
});

describe("invalidFromZod", () => {
  it("words a missing model the one way every endpoint uses", () => {
    const error = invalidFromZod(errorOf(body, { messages: [] }));
    expect(error.status).toBe(400);
    expect(error.type).toBe("invalid_request_error");
    expect(error.message).toBe(`model: ${FIELD_REQUIRED}`);
    expect(error.message).toBe("model: field required");
    expect(error.param).toBe("model");
  });

  it("keeps zod's message for a wrong value, naming the field", () => {
    const error = invalidFromZod(errorOf(body, { model: 1, messages: [] }));
    expect(error.message).toBe("model: Invalid input: expected string, received number");
    expect(error.param).toBe("model");
  });

  it("follows the union branch that got furthest", () => {
    const wire = { model: "m", messages: [{ role: "user", content: [{ type: "text" }] }] };
    const error = invalidFromZod(errorOf(body, wire));
    expect(error.message).toBe("messages[0].content[0].text: field required");
    expect(error.param).toBe("messages[0].content[0].text");
  });

  it("lists the values of a union of literals no branch got past", () => {
    const error = invalidFromZod(errorOf(body, { model: "m", messages: [], tool_choice: "x" }));
    expect(error.message).toBe('tool_choice: must be one of "auto", "none"');
    expect(error.param).toBe("tool_choice");
  });

  it("keeps a union's own message when no branch got past the field", () => {
    const input = z.union([z.string(), z.array(z.string())], { error: () => "must be text" });
    const schema = z.object({ input });
    expect(invalidFromZod(errorOf(schema, { input: 5 })).message).toBe("input: must be text");
    expect(invalidFromZod(errorOf(schema, {})).message).toBe("input: field required");
    const sizes = z.union([z.literal(4), z.literal(8)], { error: "must be 4 or 8 as a number" });
    expect(invalidFromZod(errorOf(z.object({ n: sizes }), { n: "8" })).message).toBe(
      "n: must be 4 or 8 as a number",
    );
    const plain = z.object({ input: z.union([z.string(), z.array(z.string())]) });
    expect(invalidFromZod(errorOf(plain, { input: 5 })).message).toBe(
      "input: Invalid input: expected string, received number",
    );
  });

  it("lists the tags of a discriminated union", () => {
    const error = invalidFromZod(errorOf(body, { model: "m", messages: [], block: { type: "z" } }));
    expect(error.message).toBe('block.type: must be one of "x", "y"');
    expect(error.param).toBe("block.type");
  });

  it("names a root problem by what was parsed, without param", () => {
    const error = invalidFromZod(errorOf(body, []), "chat request");
    expect(error.message).toBe(
      "invalid chat request: Invalid input: expected object, received array",
    );
    expect(error.param).toBeUndefined();
    expect(invalidFromZod(errorOf(body, "x")).message).toMatch(/^invalid request body: /);
  });

  it("names an unknown field of a strict schema", () => {
    const strict = z.strictObject({ prompt: z.string() });
    const error = invalidFromZod(errorOf(strict, { prompt: "p", size: 1 }), "image request");
    expect(error.message).toBe("size: unknown field for image request");
    expect(error.param).toBe("size");
  });

  it("prefixes the path of a part judged alone", () => {
    const item = z.object({ content: z.string() });
    const error = invalidFromZod(errorOf(item, {}), "response", ["output", 3]);
    expect(error.message).toBe("output[3].content: field required");
    expect(error.param).toBe("output[3].content");
  });
});

describe("formatZodIssue", () => {
  it("words each issue alone, the way invalidFromZod words the first", () => {
    const issues = errorOf(body, { messages: "x" }).issues;
    expect(issues.map((issue) => formatZodIssue(issue, "body"))).toEqual([
      { message: "model: field required", param: "model" },
      { message: "messages: Invalid input: expected array, received string", param: "messages" },
    ]);
  });
});

describe("invalidField", () => {
  it("names the field in message and param", () => {
    const error = invalidField(["tools", 1, "function"], "set parameters, not both");
    expect(error.message).toBe("tools[1].function: set parameters, not both");
    expect(error.param).toBe("tools[1].function");
  });
});
