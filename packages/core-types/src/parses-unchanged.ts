import type * as core from "zod/v4/core";

/**
 * Whether zod would accept a value and give back the same content. zod builds a fresh copy of
 * every object and array it checks, which was most of the cost of parsing a request body, though
 * a valid body comes back with the content it had. This walks the value against the schema's
 * definition without building anything; it answers yes only when it is sure, and every other case
 * (an error, a key zod strips, a transform, a schema kind it does not know) is left to zod, so
 * errors are zod's own. Leaves with checks (a regex, a range) are run by zod itself.
 */

// What zod would do with a value: reject it, accept it unchanged, or anything else.
const FAIL = 0;
const SAME = 1;
const UNSURE = 2;
type Verdict = typeof FAIL | typeof SAME | typeof UNSURE;
type Check = (value: unknown) => Verdict;

type Schema = core.$ZodType;
type Def = core.$ZodTypeDef & Record<string, unknown>;

const defOf = (schema: Schema) => schema._zod.def as Def;

const passThrough: Check = () => SAME;

const always =
  (verdict: Verdict): Check =>
  () =>
    verdict;

const isOverwrite = (c: core.$ZodCheck) => (c._zod.def as { check: string }).check === "overwrite";

/** A container's verdict once its contents are the same: its own checks decide, if it has any. */
const withChecks = (checks: Check | undefined, value: unknown): Verdict =>
  checks === undefined ? SAME : checks(value);

/** zod's own object test. */
const isObjectLike = (value: unknown): value is object =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** For an object: a plain prototype keeps the accepted value a plain object, like zod's copy. */
const hasPlainProto = (value: object): value is Record<string, unknown> => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

const isPlainRecord = (value: unknown): value is Record<string, unknown> =>
  isObjectLike(value) && hasPlainProto(value);

// `__proto__` as an own key (JSON.parse makes one) is left to zod, which skips it on copy.
const hasOwnProto = (value: object) => Object.hasOwn(value, "__proto__");

/**
 * A container's checks (a minimum length, a refinement) as zod runs them on its copy, which holds
 * what the input holds; an overwrite check changes the value, so its verdict is left to zod.
 */
function checksOf(def: Def): Check | undefined {
  const checks = (def.checks ?? []) as core.$ZodCheck[];
  if (checks.length === 0) return undefined;
  if (checks.some(isOverwrite)) return always(UNSURE);
  return (value) => {
    for (const check of checks) {
      const payload = { value, issues: [] } as unknown as core.ParsePayload<never>;
      const when = check._zod.def.when;
      if (when !== undefined && !when(payload)) continue;
      check._zod.check(payload);
      if (payload.issues.length > 0) return FAIL;
    }
    return SAME;
  };
}

/** Leaves without checks, tested directly: no payload to build, no issue when probing a union. */
const plainLeaves: Readonly<Record<string, (schema: Schema) => Check>> = {
  string: () => (value) => (typeof value === "string" ? SAME : FAIL),
  boolean: () => (value) => (typeof value === "boolean" ? SAME : FAIL),
  number: () => (value) => (typeof value === "number" && Number.isFinite(value) ? SAME : FAIL),
  null: () => (value) => (value === null ? SAME : FAIL),
  literal: (schema) => setMember(schema._zod.values),
  enum: (schema) => setMember(schema._zod.values),
};

const setMember =
  (values: ReadonlySet<unknown> | undefined): Check =>
  (value) =>
    values?.has(value) ? SAME : FAIL;

type Quick = (value: never) => boolean | undefined;

/**
 * The usual checks of a leaf, answered without a payload: true or false where the answer is
 * zod's, undefined where only zod can tell (a string near its minimum, counted in code points).
 */
interface CheckDef {
  check: string;
  value: number;
  inclusive: boolean;
  format: string;
  minimum: number;
}

const quickChecks: Readonly<Record<string, (def: CheckDef) => Quick | undefined>> = {
  greater_than:
    ({ value: min, inclusive }) =>
    (value: number) =>
      inclusive ? value >= min : value > min,
  less_than:
    ({ value: max, inclusive }) =>
    (value: number) =>
      inclusive ? value <= max : value < max,
  number_format: ({ format }) =>
    format === "safeint" ? (value: number) => Number.isSafeInteger(value) : undefined,
  min_length:
    ({ minimum }) =>
    (value: string) =>
      value.length >= minimum * 2 || undefined,
};

/** A leaf: tested directly where its type and checks allow, else zod's own run decides. */
function leaf(schema: Schema): Check {
  const def = defOf(schema);
  const checks = (def.checks ?? []) as core.$ZodCheck[];
  if (def.coerce === true || checks.some(isOverwrite)) return always(UNSURE);
  const byZod: Check = (value) => {
    const result = schema._zod.run({ value, issues: [] }, {}) as core.ParsePayload;
    return result.issues.length === 0 ? SAME : FAIL;
  };
  // A format (z.int(), z.email()) is its own check: zod runs it.
  const base = schema._zod.traits.has("$ZodCheck") ? undefined : plainLeaves[def.type];
  if (base === undefined) return byZod;
  const quick: Quick[] = [];
  for (const check of checks) {
    const checkDef = check._zod.def as unknown as CheckDef;
    const made = quickChecks[checkDef.check]?.(checkDef);
    if (made === undefined) return byZod;
    quick.push(made);
  }
  const test = base(schema);
  return (value) => {
    const verdict = test(value);
    if (verdict !== SAME) return verdict;
    for (const check of quick) {
      const ok = check(value as never);
      if (ok === undefined) return byZod(value);
      if (!ok) return FAIL;
    }
    return SAME;
  };
}

function object(schema: Schema, compile: (s: Schema) => Check, ownChecks = true): Check {
  const def = defOf(schema) as Def & { shape: Record<string, Schema>; catchall?: Schema };
  const checks = ownChecks ? checksOf(def) : undefined;
  const fields = new Map<string, { check: Check; required: boolean }>();
  let required = 0;
  for (const key of Object.keys(def.shape)) {
    const field = def.shape[key]!;
    // Absent is fine only for an optional field that stays absent (no default filled in).
    const isRequired = field._zod.optin !== "optional" || field._zod.optout !== "optional";
    if (isRequired) required++;
    fields.set(key, { check: compile(field), required: isRequired });
  }
  const catchallType = def.catchall === undefined ? "strip" : defOf(def.catchall).type;
  const rest =
    def.catchall === undefined || catchallType === "unknown" || catchallType === "any"
      ? passThrough
      : compile(def.catchall);
  // The input's own keys, usually far fewer than the shape's optional fields; a required field
  // missing, or zod's default or absent-key handling, is left to zod.
  return (value) => {
    if (!isObjectLike(value)) return FAIL;
    if (!hasPlainProto(value)) return UNSURE;
    let seen = 0;
    for (const key in value) {
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined || key === "__proto__") return UNSURE;
      const field = fields.get(key);
      let verdict: Verdict;
      if (field !== undefined) {
        if (field.required) seen++;
        verdict = field.check(item);
      } else if (catchallType === "strip") {
        return UNSURE; // zod copies the object without the key
      } else if (catchallType === "never") {
        return FAIL;
      } else {
        verdict = rest(item);
      }
      if (verdict !== SAME) return verdict;
    }
    return seen < required ? UNSURE : withChecks(checks, value);
  };
}

function array(schema: Schema, compile: (s: Schema) => Check): Check {
  const def = defOf(schema) as Def & { element: Schema };
  const element = compile(def.element);
  const checks = checksOf(def);
  return (value) => {
    if (!Array.isArray(value)) return FAIL;
    for (let i = 0; i < value.length; i++) {
      const verdict = element(value[i]);
      if (verdict !== SAME) return verdict;
    }
    return withChecks(checks, value);
  };
}

function record(schema: Schema, compile: (s: Schema) => Check): Check {
  const def = defOf(schema) as Def & { keyType: Schema; valueType: Schema };
  const keyDef = defOf(def.keyType);
  // Only records keyed by any string: enum keys and key checks are left to zod.
  if (keyDef.type !== "string" || (keyDef.checks?.length ?? 0) > 0) return always(UNSURE);
  const checks = checksOf(def);
  const valueType = defOf(def.valueType).type;
  const anyValue = valueType === "unknown" || valueType === "any";
  const item = compile(def.valueType);
  return (value) => {
    if (!isPlainRecord(value) || hasOwnProto(value)) return UNSURE;
    if (!anyValue) {
      for (const key in value) {
        const verdict = item(value[key]);
        if (verdict !== SAME) return verdict;
      }
    }
    return withChecks(checks, value);
  };
}

/** A discriminated union: the option the discriminator names decides, as in zod. */
function byDiscriminator(
  def: Def & { options: Schema[]; discriminator: string },
  compile: (s: Schema) => Check,
): Check | undefined {
  const options = new Map<unknown, Check>();
  for (const option of def.options) {
    const values = (option._zod as { propValues?: Record<string, Set<unknown>> }).propValues?.[
      def.discriminator
    ];
    if (values === undefined) return undefined;
    const check = compile(option);
    for (const value of values) {
      // A value two options share is left to zod's own lookup.
      if (options.has(value)) return undefined;
      options.set(value, check);
    }
  }
  const checks = checksOf(def);
  return (value) => {
    if (!isObjectLike(value)) return FAIL;
    const option = options.get((value as Record<string, unknown>)[def.discriminator]);
    if (option === undefined) return UNSURE;
    const verdict = option(value);
    return verdict === SAME ? withChecks(checks, value) : verdict;
  };
}

/** zod takes the first option that accepts: the verdict is sure only if every earlier one fails. */
function union(schema: Schema, compile: (s: Schema) => Check): Check {
  const def = defOf(schema) as Def & { options: Schema[]; discriminator?: string };
  if (def.discriminator !== undefined) {
    const discriminated = byDiscriminator({ ...def, discriminator: def.discriminator }, compile);
    if (discriminated !== undefined) return discriminated;
  }
  const checks = checksOf(def);
  const options = def.options.map(compile);
  return (value) => {
    for (const option of options) {
      const verdict = option(value);
      if (verdict === SAME) return withChecks(checks, value);
      if (verdict !== FAIL) return verdict;
    }
    return FAIL;
  };
}

function optional(schema: Schema, compile: (s: Schema) => Check): Check {
  const inner = compile(defOf(schema).innerType as Schema);
  return (value) => (value === undefined ? UNSURE : inner(value));
}

function nullable(schema: Schema, compile: (s: Schema) => Check): Check {
  const inner = compile(defOf(schema).innerType as Schema);
  return (value) => (value === null ? SAME : inner(value));
}

/** The definition types the pre-check walks itself; any other is left to zod. */
const compilers: Readonly<
  Record<string, (schema: Schema, compile: (s: Schema) => Check) => Check>
> = {
  string: leaf,
  number: leaf,
  boolean: leaf,
  literal: leaf,
  enum: leaf,
  null: leaf,
  custom: leaf,
  unknown: () => passThrough,
  any: () => passThrough,
  object,
  array,
  record,
  union,
  optional,
  nullable,
};

const compiled = new WeakMap<Schema, Check>();

function compile(schema: Schema): Check {
  const known = compiled.get(schema);
  if (known !== undefined) return known;
  // A recursive schema (a getter in a shape) meets itself while compiling: it forwards.
  let check: Check = always(UNSURE);
  compiled.set(schema, (value) => check(value));
  const make = compilers[defOf(schema).type];
  check = make === undefined ? always(UNSURE) : make(schema, compile);
  compiled.set(schema, check);
  return check;
}

const shapes = new WeakMap<Schema, Check>();

/**
 * Whether an object schema's shape and catchall take `value` unchanged: its own checks are left
 * out, as zod runs them after the object's parse (compiled once per schema).
 */
export function parsesUnchanged(schema: core.$ZodType, value: unknown): boolean {
  let check = shapes.get(schema);
  if (check === undefined) {
    check = object(schema, compile, false);
    shapes.set(schema, check);
  }
  return check(value) === SAME;
}
