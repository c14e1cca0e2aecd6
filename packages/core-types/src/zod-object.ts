import * as z from "zod/mini";
import * as core from "zod/v4/core";
import { parsesUnchanged } from "./parses-unchanged.js";

// zod/mini's objects copy every object and array they check. These are mini objects (same type,
// same issues, `z.extend` keeps the parser) that first check without copying: a value that parses
// unchanged comes back as it is (sharing its objects); any other goes through mini's own parser.
type Init = { init(inst: unknown, def: unknown): void };
type Parse = (payload: core.ParsePayload, ctx: core.ParseContextInternal) => unknown;
const CheckedObject = /*@__PURE__*/ core.$constructor(
  "ZodMiniObjectChecked",
  (inst: core.$ZodType, def: core.$ZodObjectDef) => {
    (z.ZodMiniObject as unknown as Init).init(inst, def);
    const copy = inst._zod.parse as Parse;
    inst._zod.parse = ((payload, ctx) =>
      ctx?.direction !== "backward" && parsesUnchanged(inst, payload.value)
        ? payload
        : copy(payload, ctx)) as Parse as typeof inst._zod.parse;
  },
);

type Params = Parameters<typeof z.object>[1];
const made = (shape: unknown, params: Params, catchall?: core.$ZodType) =>
  new CheckedObject({
    type: "object",
    shape: shape ?? {},
    ...(catchall === undefined ? {} : { catchall }),
    ...core.util.normalizeParams(params),
  } as core.$ZodObjectDef) as unknown;

/** `z.object` of zod/mini, checked before it copies. */
export const zObject = /*@__PURE__*/ ((shape: unknown, params?: Params) =>
  made(shape, params)) as typeof z.object;
/** `z.strictObject` of zod/mini, checked before it copies. */
export const zStrictObject = /*@__PURE__*/ ((shape: unknown, params?: Params) =>
  made(shape, params, z.never())) as typeof z.strictObject;
/** `z.looseObject` of zod/mini, checked before it copies. */
export const zLooseObject = /*@__PURE__*/ ((shape: unknown, params?: Params) =>
  made(shape, params, z.unknown())) as typeof z.looseObject;
