// Apart from gateway-status.ts, whose helpers every codec calls: a bundler drops a module none of
// whose exports is used, but never a top-level schema call in one it keeps.
import * as z from "zod/mini";
import { gatewayStatuses } from "./gateway-status.js";

export const gatewayStatusSchema = z.union(gatewayStatuses.map((status) => z.literal(status)));
