import type { AuthenticatedToken } from "../auth/token-store.ts";
import { findModel } from "../catalogue/model-catalogue.ts";
import type { ModelRouter } from "../routing/model-router.ts";

export interface OpenAiModel {
  id: string;
  object: "model";
  created: number;
  owned_by: string;
}

/** `GET /v1/models` in OpenAI's list shape: the configured models this token may use. */
/** `GET /v1/models/{id}`: the list's entry for `id`, if this token may use it. */
export const findListedModel = (
  router: ModelRouter,
  token: AuthenticatedToken,
  created: number,
  id: string,
): OpenAiModel | undefined => listModels(router, token, created).data.find((m) => m.id === id);

export function listModels(
  router: ModelRouter,
  token: AuthenticatedToken,
  created: number,
): { object: "list"; data: OpenAiModel[] } {
  const ids = router
    .modelIds()
    .filter((id) => token.models === undefined || token.models.has(id))
    .sort();
  return {
    object: "list",
    data: ids.map((id) => ({
      id,
      object: "model",
      created,
      owned_by:
        findModel(id)?.protocol ??
        router.resolve(id)?.candidates[0]?.channel.protocol ??
        "interlingua",
    })),
  };
}
