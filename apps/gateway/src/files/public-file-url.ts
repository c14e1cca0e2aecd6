/** Where the gateway's files are served (GatewayServices.publicUrl). */
export interface PublicUrl {
  readonly publicUrl: () => string;
}

/**
 * The public URL of a stored file: `public_url` (or, when unset, the address the gateway
 * listens on) + `/files/<key>`. A path in `public_url` is kept, so a gateway behind a
 * path-prefixed proxy hands out URLs that reach it.
 */
export function publicFileUrl(services: PublicUrl, key: string): string {
  return `${services.publicUrl().replace(/\/+$/, "")}/files/${encodeURIComponent(key)}`;
}
