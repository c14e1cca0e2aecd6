import { upstreamProtocolSchema, wireFormatSchema } from "@interlingua/core-types";
import * as z from "zod";

export const modelFamilySchema = z.enum(["txtA", "txtB", "txtC", "txtD", "vidV", "asrW"]);
export type ModelFamily = z.infer<typeof modelFamilySchema>;

export const modelKindSchema = z.enum(["text", "image", "video", "speech", "transcription"]);
export type ModelKind = z.infer<typeof modelKindSchema>;

export const endpointSchema = z.enum([
  ...wireFormatSchema.options,
  "videos",
  "remix",
  "images",
  "speech",
  "transcriptions",
]);
export type Endpoint = z.infer<typeof endpointSchema>;

export const modelEntrySchema = z.object({
  id: z.string(),
  family: modelFamilySchema,
  kind: modelKindSchema,
  protocol: upstreamProtocolSchema,
  endpoints: z.array(endpointSchema),
  aliases: z.array(z.string()),
  capabilities: z.object({
    caching: z.boolean(),
    thinking: z.boolean(),
    imageInput: z.boolean(),
  }),
  /** Video variant: the standard route or the official one (docs/api-reference.md, video generation). */
  variant: z.enum(["standard", "official"]).exactOptional(),
});
export type ModelEntry = z.infer<typeof modelEntrySchema>;

const TEXT_ENDPOINTS: Endpoint[] = ["chat", "responses", "messages", "native"];
const FAMILY_PROTOCOL = {
  txtA: "openai",
  txtB: "anthropic",
  txtC: "gemini",
  txtD: "openai",
  vidV: "gemini",
  asrW: "openai",
} as const satisfies Record<ModelFamily, z.infer<typeof upstreamProtocolSchema>>;

/** Models OpenAI serves only through its Responses API, not chat completions. */
const RESPONSES_ONLY = new Set(["txtA-5.2-pro", "txtA-5.2-codex"]);

type Caps = ModelEntry["capabilities"];
const caps = (caching: boolean, thinking: boolean, imageInput: boolean): Caps => ({
  caching,
  thinking,
  imageInput,
});

/** [id, capabilities] per text family; every text model takes all four text formats. */
const TEXT_MODELS: Record<"txtA" | "txtB" | "txtC" | "txtD", [string, Caps][]> = {
  txtA: [
    ["txtA-5", caps(true, true, true)],
    ["txtA-5.1", caps(true, true, true)],
    ["txtA-5-chat-latest", caps(true, false, true)],
    ["txtA-5-mini", caps(true, true, true)],
    ["txtA-5.2-pro", caps(true, true, true)],
    ["txtA-5.2-codex", caps(true, true, true)],
  ],
  txtB: [
    ["txtB-opus-4-8", caps(true, true, true)],
    ["txtB-opus-4-7", caps(true, true, true)],
    ["txtB-opus-4-6", caps(true, true, true)],
    ["txtB-sonnet-4-6", caps(true, true, true)],
    ["txtB-opus-4-5-20251101", caps(true, true, true)],
  ],
  txtC: [
    ["txtC-3.5-flash", caps(true, true, true)],
    ["txtC-3.1-pro-preview", caps(true, true, true)],
    ["txtC-3-pro-preview", caps(true, true, true)],
    ["txtC-3-pro-preview-thinking", caps(true, true, true)],
    ["txtC-3-flash-preview", caps(true, true, true)],
    ["txtC-2.5-pro", caps(true, true, true)],
    ["txtC-2.5-flash", caps(true, true, true)],
    ["txtC-2.5-flash-lite", caps(true, true, true)],
    ["txtC-3.6-flash", caps(true, true, true)],
  ],
  txtD: [
    ["txtD-v4-pro", caps(true, true, false)],
    ["txtD-v4-flash", caps(true, true, false)],
    ["txtD-v3.2", caps(true, true, false)],
    ["txtD-v3.2-exp", caps(true, true, false)],
    ["txtD-r1-250528", caps(true, true, false)],
    ["txtD-v3-0324", caps(true, false, false)],
  ],
};

const none = caps(false, false, false);

/** Models of the non-text endpoints, with their aliases (docs/api-reference.md, Versioning). */
const MEDIA_MODELS: Omit<ModelEntry, "protocol">[] = [
  ...(["fast", "quality", "lite"] as const).map(
    (tier): Omit<ModelEntry, "protocol"> => ({
      id: `vidV3.1-${tier}`,
      family: "vidV",
      kind: "video",
      endpoints: tier === "lite" ? ["videos"] : ["videos", "remix"],
      aliases: [`vidV3.1-${tier}-ext`],
      capabilities: caps(false, false, tier !== "lite"),
      variant: "standard",
    }),
  ),
  ...(["fast", "quality"] as const).map(
    (tier): Omit<ModelEntry, "protocol"> => ({
      id: `vidV3.1-${tier}-official`,
      family: "vidV",
      kind: "video",
      endpoints: ["videos"],
      aliases: [],
      capabilities: caps(false, false, true),
      variant: "official",
    }),
  ),
  {
    id: "txtA-image-2",
    family: "txtA",
    kind: "image",
    endpoints: ["images"],
    aliases: [],
    capabilities: caps(false, false, true),
  },
  {
    id: "txtC-3-pro-image-preview",
    family: "txtC",
    kind: "image",
    endpoints: ["images"],
    aliases: [],
    capabilities: caps(false, false, true),
  },
  {
    id: "txtA-4o-mini-tts",
    family: "txtA",
    kind: "speech",
    endpoints: ["speech"],
    aliases: [],
    capabilities: none,
  },
  {
    id: "asrW-1",
    family: "asrW",
    kind: "transcription",
    endpoints: ["transcriptions"],
    aliases: [],
    capabilities: none,
  },
];

/** Every model id named in docs/api-reference.md. */
export const modelCatalogue: readonly ModelEntry[] = [
  ...Object.entries(TEXT_MODELS).flatMap(([family, models]) =>
    models.map(
      ([id, capabilities]): ModelEntry => ({
        id,
        family: family as ModelFamily,
        kind: "text",
        protocol: RESPONSES_ONLY.has(id)
          ? "openai-responses"
          : FAMILY_PROTOCOL[family as ModelFamily],
        endpoints: TEXT_ENDPOINTS,
        aliases: [],
        capabilities,
      }),
    ),
  ),
  ...MEDIA_MODELS.map((m): ModelEntry => ({ ...m, protocol: FAMILY_PROTOCOL[m.family] })),
];

const byName = new Map<string, ModelEntry>();
for (const entry of modelCatalogue) {
  byName.set(entry.id, entry);
  for (const alias of entry.aliases) byName.set(alias, entry);
}

/** The catalogue entry for a model id or one of its aliases. */
export function findModel(idOrAlias: string): ModelEntry | undefined {
  return byName.get(idOrAlias);
}

/** The main id for an alias (`vidV3.1-fast-ext` -> `vidV3.1-fast`); unknown ids come back as given. */
export function canonicalModelId(idOrAlias: string): string {
  return byName.get(idOrAlias)?.id ?? idOrAlias;
}

/** The family tag of any model id, known or not, by its prefix. */
export function modelFamilyOf(id: string): ModelFamily | undefined {
  return modelFamilySchema.options.find((family) => id.startsWith(family));
}

export function modelsForEndpoint(endpoint: Endpoint): ModelEntry[] {
  return modelCatalogue.filter((m) => m.endpoints.includes(endpoint));
}
