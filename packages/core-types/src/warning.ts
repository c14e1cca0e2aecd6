import * as z from "zod/mini";
import { zObject } from "./zod-object.js";

/**
 * What a render could not carry. Codecs never drop silently: they refuse with a 400, or they call
 * `onWarning` with one of these so the gateway can log or surface it.
 */
export const warningSchema = zObject({
  type: z.enum(["dropped", "mapped"]),
  /** The canonical feature, as a path (`sampling.frequencyPenalty`, `tools[2]`, `parts.file`). */
  feature: z.string(),
  message: z.string(),
});
export type Warning = z.infer<typeof warningSchema>;

export interface RenderOptions {
  onWarning?: (warning: Warning) => void;
}
