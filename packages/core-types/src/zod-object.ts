import * as z from "zod/mini";
import * as core from "zod/v4/core";

// zod/mini's objects parse with the generic walk; zod classic's compile a parser per shape, about
// five times faster on a request body. These are mini objects (same type, same issues, `z.extend`
// keeps the compiled parser) on classic's compiled parser, which falls back where eval is refused.
type Init = { init(inst: unknown, def: unknown): void };
const JitObject = /*@__PURE__*/ core.$constructor("ZodMiniObjectJit", (inst, def) => {
  (z.ZodMiniObject as unknown as Init).init(inst, def);
  (core.$ZodObjectJIT as unknown as Init).init(inst, def);
});

type Params = Parameters<typeof z.object>[1];
const made = (shape: unknown, params: Params, catchall?: core.$ZodType) =>
  new JitObject({
    type: "object",
    shape: shape ?? {},
    ...(catchall === undefined ? {} : { catchall }),
    ...core.util.normalizeParams(params),
  } as core.$ZodObjectDef) as unknown;

/** `z.object` of zod/mini, on the compiled parser. */
export const zObject = /*@__PURE__*/ ((shape: unknown, params?: Params) =>
  made(shape, params)) as typeof z.object;
/** `z.strictObject` of zod/mini, on the compiled parser. */
export const zStrictObject = /*@__PURE__*/ ((shape: unknown, params?: Params) =>
  made(shape, params, z.never())) as typeof z.strictObject;
/** `z.looseObject` of zod/mini, on the compiled parser. */
export const zLooseObject = /*@__PURE__*/ ((shape: unknown, params?: Params) =>
  made(shape, params, z.unknown())) as typeof z.looseObject;
