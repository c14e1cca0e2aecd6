import type { JsonObject } from "@interlingua/core-types";
import { invalidRequest } from "@interlingua/errors";

/**
 * Function `parameters` toward the upstream are its Schema object, "a select subset of an OpenAPI
 * 3.0 schema object", not JSON Schema: other keywords are refused with a 400. These are the
 * keywords the Schema object accepts; everything else is rewritten or removed.
 */
export const nativeSchemaKeywords: ReadonlySet<string> = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
]);

/** Formats the upstream honours per type; others are refused by the Developer API. */
const formatsByType: Readonly<Record<string, ReadonlySet<string>>> = {
  string: new Set(["enum", "date-time"]),
  number: new Set(["float", "double"]),
  integer: new Set(["int32", "int64"]),
};

export interface SchemaSanitizeStep {
  /** The JSON Schema keyword that was rewritten or removed. */
  keyword: string;
  /** Where, as a JSON pointer into the input schema ("" for the root). */
  path: string;
  message: string;
}

type Node = Record<string, unknown>;

const isObject = (v: unknown): v is Node =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const isNullSchema = (v: unknown): boolean =>
  isObject(v) && Object.keys(v).length === 1 && (v.type === "null" || v.type === "NULL");

const escapePointer = (key: string) => key.replaceAll("~", "~0").replaceAll("/", "~1");

/** Where in the input schema, as a chain built cheaply and written out only when reported. */
type Path = { parent: Path; key: string | number } | undefined;

function pointer(path: Path): string {
  let out = "";
  for (let at = path; at !== undefined; at = at.parent) {
    out = `/${typeof at.key === "number" ? at.key : escapePointer(at.key)}${out}`;
  }
  return out;
}

function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/**
 * The most `$ref`s one schema may inline. Inlining copies the target, so refs to refs multiply:
 * twenty definitions each pointing twice at the next inline a million schemas from a 2 kB body
 * (issue 15, item 6). Real schemas inline a few dozen.
 */
export const MAX_INLINED_REFS = 1_000;

class Sanitizer {
  #inlined = 0;

  constructor(
    private readonly root: unknown,
    private readonly onStep: ((step: SchemaSanitizeStep) => void) | undefined,
  ) {}

  private step(keyword: string, path: Path, message: string): void {
    this.onStep?.({ keyword, path: pointer(path), message });
  }

  schema(input: unknown, path: Path, refs: readonly string[]): Node {
    if (!isObject(input)) {
      if (input !== true) this.step("schema", path, "a non-object schema became {}");
      return {};
    }
    if (typeof input.$ref === "string") return this.inlineRef(input, path, refs);
    let node = input;
    if (Array.isArray(node.allOf)) node = this.mergeAllOf(node, path, refs);
    if (Array.isArray(node.oneOf)) {
      this.step("oneOf", path, "oneOf became anyOf (at least one, not exactly one)");
      const { oneOf, ...rest } = node;
      node = { ...rest, anyOf: [...(Array.isArray(rest.anyOf) ? rest.anyOf : []), ...oneOf] };
    }
    const out: Node = {};
    let nullable = node.nullable === true;
    // The values of `const` / `enum`, fitted to the node's type once every keyword is read.
    let choices: { values: unknown[]; at: Path } | undefined;
    for (const key in node) {
      const value = node[key];
      const at: Path = { parent: path, key };
      switch (key) {
        case "type":
          if (Array.isArray(value)) {
            nullable = this.typeList(value, out, at) || nullable;
          } else if (typeof value === "string") {
            out.type = value;
          } else {
            this.step("type", at, "a non-string type was removed");
          }
          break;
        case "nullable":
          if (typeof value === "boolean") out.nullable = value;
          else this.step("nullable", at, "a non-boolean nullable was removed");
          break;
        case "minimum":
        case "maximum":
          // An exclusive bound met earlier already wrote the tighter of the two.
          if (out[key] === undefined) out[key] = value;
          break;
        case "const":
          if (value === null) {
            this.step("const", at, "const null became nullable");
            nullable = true;
          } else if (typeof value === "object") {
            this.step("const", at, "a structured const was removed");
          } else {
            this.step("const", at, "const became an enum of one");
            choices = { values: [value], at };
          }
          break;
        case "enum":
          if (Array.isArray(value)) {
            if (value.includes(null)) nullable = true;
            choices = { values: value.filter((v) => v !== null), at };
            if (choices.values.some((v) => typeof v !== "string")) {
              this.step("enum", at, "enum values became strings (null became nullable)");
            }
          } else {
            this.step("enum", at, "a non-array enum was removed");
          }
          break;
        case "exclusiveMinimum":
        case "exclusiveMaximum":
          this.exclusiveBound(key, value, node, out, at);
          break;
        case "examples":
          if (Array.isArray(value) && value.length > 0 && node.example === undefined) {
            out.example = value[0];
            this.step("examples", at, "examples became example (the first one)");
          } else {
            this.step("examples", at, "examples was removed");
          }
          break;
        case "properties":
          out.properties = this.properties(value, at, refs);
          break;
        case "items":
          out.items = Array.isArray(value)
            ? this.tupleItems(value, at, refs)
            : this.schema(value, at, refs);
          break;
        case "anyOf":
          if (Array.isArray(value)) {
            // JSON Schema's optional value (`anyOf: [X, {type: "null"}]`) is X made nullable.
            const nulls = value.filter(isNullSchema);
            if (nulls.length > 0 && nulls.length < value.length) {
              nullable = true;
              this.step("anyOf", at, 'a {"type": "null"} member became nullable');
            }
            const members =
              nulls.length < value.length ? value.filter((s) => !isNullSchema(s)) : value;
            out.anyOf = members.map((s, i) => this.schema(s, { parent: at, key: i }, refs));
          } else {
            this.step("anyOf", at, "a non-array anyOf was removed");
          }
          break;
        case "format":
          break;
        case "$defs":
        case "definitions":
          this.step(key, at, `${key} removed (each $ref to it is inlined)`);
          break;
        default:
          if (nativeSchemaKeywords.has(key)) out[key] = value;
          else this.step(key, at, `${key} is not part of the upstream's Schema object; removed`);
      }
    }
    if (choices !== undefined) this.choices(choices.values, out, choices.at);
    if (node.format !== undefined) this.format(node.format, out, { parent: path, key: "format" });
    if (isObject(out.properties) && Object.keys(out.properties).length === 0) {
      // "properties: should be non-empty for OBJECT type": an object of any keys is {type: object}.
      this.step("properties", { parent: path, key: "properties" }, "empty properties were removed");
      delete out.properties;
    }
    if (Array.isArray(out.required) && out.properties === undefined) {
      // Without properties no name is defined, and the upstream refuses undefined required names.
      if (out.required.length > 0) {
        this.step(
          "required",
          { parent: path, key: "required" },
          "required without properties was removed",
        );
      }
      delete out.required;
    }
    if (Array.isArray(out.required) && isObject(out.properties)) {
      const properties = out.properties;
      const kept = out.required.filter(
        (n) => typeof n === "string" && Object.hasOwn(properties, n),
      );
      if (kept.length !== out.required.length) {
        this.step(
          "required",
          { parent: path, key: "required" },
          "names without a property were removed",
        );
        out.required = kept;
      }
    }
    if (nullable) out.nullable = true;
    return out;
  }

  /** Refs are inlined; the path's chain of refs guards against recursive definitions. */
  private inlineRef(node: Node, path: Path, refs: readonly string[]): Node {
    const ref = node.$ref as string;
    const { $ref: _ref, ...rest } = node;
    if (refs.includes(ref)) {
      this.step("$ref", path, `recursive $ref ${ref} was cut to an object`);
      return this.schema({ ...rest, type: "object" }, path, refs);
    }
    const target = resolvePointer(this.root, ref);
    if (++this.#inlined > MAX_INLINED_REFS) {
      throw invalidRequest(`tool parameters inline more than ${MAX_INLINED_REFS} $refs`);
    }
    if (!isObject(target)) {
      this.step("$ref", path, `$ref ${ref} does not resolve locally; removed`);
      return this.schema(rest, path, refs);
    }
    this.step("$ref", path, `$ref ${ref} was inlined`);
    return this.schema({ ...target, ...rest }, path, [...refs, ref]);
  }

  private mergeAllOf(node: Node, path: Path, refs: readonly string[]): Node {
    this.step("allOf", path, "allOf was merged into one schema");
    const { allOf, ...rest } = node;
    const merged: Node = { ...rest };
    for (const item of allOf as unknown[]) {
      if (!isObject(item)) continue;
      const part = typeof item.$ref === "string" ? this.inlineRef(item, path, refs) : item;
      for (const key in part) {
        const value = part[key];
        if (key === "properties" && isObject(value)) {
          merged.properties = {
            ...(isObject(merged.properties) ? merged.properties : {}),
            ...value,
          };
        } else if (key === "required" && Array.isArray(value)) {
          const before = Array.isArray(merged.required) ? merged.required : [];
          merged.required = [...before, ...value.filter((n) => !before.includes(n))];
        } else if (!(key in merged)) {
          merged[key] = value;
        }
      }
    }
    return merged;
  }

  /** Returns whether "null" was among the types. */
  private typeList(types: unknown[], out: Node, at: Path): boolean {
    const names = types.filter((t): t is string => typeof t === "string");
    const nonNull = [...new Set(names.filter((t) => t !== "null"))];
    const hasNull = names.includes("null");
    if (nonNull.length === 1) {
      out.type = nonNull[0];
      this.step(
        "type",
        at,
        hasNull ? "a type list became type + nullable" : "a type list became a type",
      );
    } else if (nonNull.length > 1) {
      out.anyOf = nonNull.map((type) => ({ type }));
      this.step("type", at, "a type list became anyOf");
    } else {
      this.step("type", at, "a type list without a non-null type was removed");
    }
    return hasNull;
  }

  /**
   * The upstream takes `enum` only as strings on a string schema ("enum: only allowed for STRING
   * type"). A string type, or none with string or mixed values, keeps the values as strings; an
   * integer, number or boolean enum keeps its type (so calls still carry numbers) and lists its
   * values in the description instead.
   */
  private choices(values: unknown[], out: Node, at: Path): void {
    if (values.length === 0) return;
    const type = typeof out.type === "string" ? out.type.toLowerCase() : undefined;
    const kinds = new Set(values.map((v) => (Number.isInteger(v) ? "integer" : typeof v)));
    const only =
      kinds.size === 1
        ? [...kinds][0]
        : kinds.size === 2 && kinds.has("integer") && kinds.has("number")
          ? "number"
          : undefined;
    const primitive = values.every(
      (v) => typeof v === "string" || typeof v === "number" || typeof v === "boolean",
    );
    if (type === "string" || (type === undefined && out.anyOf !== undefined)) {
      out.enum = values.filter((v) => primitive || typeof v !== "object").map(String);
      return;
    }
    if (
      type === undefined &&
      primitive &&
      only !== "integer" &&
      only !== "number" &&
      only !== "boolean"
    ) {
      out.type = "string";
      out.enum = values.map(String);
      this.step("enum", at, "an enum without a type became a string enum");
      return;
    }
    if (type === undefined && only !== undefined) out.type = only;
    const listed = `Allowed values: ${values.map((v) => JSON.stringify(v)).join(", ")}.`;
    out.description = typeof out.description === "string" ? `${out.description} ${listed}` : listed;
    this.step(
      "enum",
      at,
      "an enum of non-strings was removed (the upstream takes enum only on strings); its values are listed in the description",
    );
  }

  private exclusiveBound(key: string, value: unknown, node: Node, out: Node, at: Path): void {
    const target = key === "exclusiveMinimum" ? "minimum" : "maximum";
    if (typeof value !== "number") {
      this.step(key, at, `${key} was removed`);
      return;
    }
    const existing = node[target];
    if (typeof existing === "number") {
      const tighter = target === "minimum" ? Math.max(existing, value) : Math.min(existing, value);
      out[target] = tighter;
    } else {
      out[target] = value;
    }
    this.step(key, at, `${key} became ${target} (the bound is now inclusive)`);
  }

  private properties(value: unknown, at: Path, refs: readonly string[]): Node {
    if (!isObject(value)) {
      this.step("properties", at, "non-object properties became {}");
      return {};
    }
    const out: Node = {};
    for (const name in value) {
      const schema = value[name];
      const where: Path = { parent: at, key: name };
      if (schema === false) {
        this.step("properties", where, "a property with schema false was removed");
        continue;
      }
      out[name] = this.schema(schema, where, refs);
    }
    return out;
  }

  private tupleItems(value: unknown[], at: Path, refs: readonly string[]): Node {
    this.step("items", at, "tuple items became items: {anyOf}");
    return { anyOf: value.map((s, i) => this.schema(s, { parent: at, key: i }, refs)) };
  }

  private format(value: unknown, out: Node, at: Path): void {
    const type = typeof out.type === "string" ? out.type.toLowerCase() : undefined;
    const allowed = type === undefined ? undefined : formatsByType[type];
    if (typeof value === "string" && allowed?.has(value)) out.format = value;
    else this.step("format", at, `format ${String(value)} is not accepted here; removed`);
  }
}

/**
 * A JSON Schema rewritten into the upstream's Schema object: the output never holds a keyword
 * outside `nativeSchemaKeywords` at any depth. Pure; `onStep` hears of every rewrite or removal so
 * the render can report each as a 'mapped' warning. Idempotent: sanitising an already clean
 * schema returns an equal schema and reports nothing.
 */
export function sanitizeNativeSchema(
  schema: JsonObject,
  onStep?: (step: SchemaSanitizeStep) => void,
): JsonObject {
  return new Sanitizer(schema, onStep).schema(schema, undefined, []);
}
