import { isFileKey } from "../files/file-key.ts";
import { publicFileUrl } from "../files/public-file-url.ts";
import type { GatewayServices } from "../services/gateway-services.ts";

/**
 * The file key when `url` is one of this gateway's own file URLs (an upload passed back in a
 * generation request): read from the file store, never fetched over HTTP.
 */
export function ownFileKey(
  services: Pick<GatewayServices, "publicUrl">,
  url: string,
): string | undefined {
  const prefix = publicFileUrl(services, "");
  if (!url.startsWith(prefix)) return undefined;
  const rest = url.slice(prefix.length);
  if (/[/?#]/.test(rest)) return undefined;
  try {
    const key = decodeURIComponent(rest);
    return isFileKey(key) ? key : undefined;
  } catch {
    return undefined;
  }
}
