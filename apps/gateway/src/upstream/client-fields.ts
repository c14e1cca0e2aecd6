import type { Request, UpstreamProtocol, Warning, WireFormat } from "@interlingua/core-types";
import { invalidRequest } from "@interlingua/errors";
import { CLIENT_PROTOCOLS } from "./protocols.ts";

/**
 * A request of client format F rendered for an upstream of another format keeps only what the
 * canonical model holds; the rest of F's fields (kept in extras for F's own upstreams) would
 * vanish. Each is reported as `dropped`, or refused with a 400 naming it where F's table says
 * no upstream can honour it (`previous_response_id`: state the gateway does not keep).
 */
export function reportUntranslatedFields(
  format: WireFormat,
  canonical: Request,
  protocol: UpstreamProtocol,
  onWarning: (warning: Warning) => void,
  /** The upstream's codec writes F's extras back (responses toward the Responses API): none drop. */
  carried = false,
): void {
  const client = CLIENT_PROTOCOLS[format];
  const refusal = client.untranslatable?.(canonical);
  if (refusal !== undefined) throw refusal;
  for (const path of client.untranslatedFields(canonical)) {
    if (client.requestFields[path] === "refused") {
      throw invalidRequest(
        `${path}: not supported by this gateway (the ${protocol} upstream cannot honour it and dropping it would change the request)`,
        path,
      );
    }
    if (carried) continue;
    onWarning({
      type: "dropped",
      feature: path,
      message: `the ${protocol} upstream has no equivalent of this ${format} field`,
    });
  }
}
