import { badGateway } from "@interlingua/errors";

/** The submit path of a Veo model on a Gemini channel. */
export const veoPredictPath = (model: string): string =>
  `/v1beta/models/${encodeURIComponent(model)}:predictLongRunning`;

// Operation names come from the upstream and go back into a URL path: only the documented
// `models/{model}/operations/{id}` (or `operations/{id}`) shape, no `..`, no query, bounded.
const operationName = /^(?:models\/[A-Za-z0-9._-]+\/)?operations\/[A-Za-z0-9._-]+$/;
const MAX_OPERATION_NAME = 512;

export const isVeoOperationName = (name: string): boolean =>
  name.length <= MAX_OPERATION_NAME && operationName.test(name) && !name.includes("..");

/** The poll path of an operation; a name of another shape is a 502 (never put in a URL). */
export function veoOperationPath(name: string): string {
  if (!isVeoOperationName(name)) throw badGateway("Upstream sent an unexpected operation name");
  return `/v1beta/${name}`;
}
