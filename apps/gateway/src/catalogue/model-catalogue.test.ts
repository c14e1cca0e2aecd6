import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  canonicalModelId,
  findModel,
  modelCatalogue,
  modelFamilyOf,
  modelsForEndpoint,
} from "./model-catalogue.ts";

// The API reference in the repository (written from docs/api-reference.md; it names every model id).
const specPath = new URL("../../../../docs/api-reference.md", import.meta.url);

/** Every backticked model id in the API reference: family tag followed by the rest of the id. */
function modelIdsInSpec(): Set<string> {
  const spec = readFileSync(specPath, "utf8");
  const ids = new Set<string>();
  for (const match of spec.matchAll(
    /`((?:txtA|txtB|txtC|txtD|asrW)-[A-Za-z0-9.-]+|vidV[0-9][A-Za-z0-9.-]*)`/g,
  )) {
    ids.add(match[1]!);
  }
  return ids;
}

describe("model catalogue", () => {
  it("holds every model id the API reference names, as a main id or an alias", () => {
    const missing = [...modelIdsInSpec()].filter((id) => findModel(id) === undefined);
    expect(missing).toEqual([]);
    expect(modelIdsInSpec().size).toBeGreaterThanOrEqual(38);
  });

  it("has no duplicate names", () => {
    const names = modelCatalogue.flatMap((m) => [m.id, ...m.aliases]);
    expect(new Set(names).size).toBe(names.length);
  });

  it("resolves -ext aliases to the main video models", () => {
    expect(canonicalModelId("vidV3.1-fast-ext")).toBe("vidV3.1-fast");
    expect(canonicalModelId("vidV3.1-quality-ext")).toBe("vidV3.1-quality");
    expect(canonicalModelId("vidV3.1-lite-ext")).toBe("vidV3.1-lite");
    expect(canonicalModelId("no-such-model")).toBe("no-such-model");
  });

  it("routes each family to its upstream protocol", () => {
    expect(findModel("txtA-5")?.protocol).toBe("openai");
    expect(findModel("txtB-sonnet-4-6")?.protocol).toBe("anthropic");
    expect(findModel("txtC-3.6-flash")?.protocol).toBe("gemini");
    expect(findModel("txtD-v3.2")?.protocol).toBe("openai");
    expect(findModel("vidV3.1-fast-official")?.protocol).toBe("gemini");
    expect(findModel("asrW-1")?.protocol).toBe("openai");
    // OpenAI serves its pro and codex models only through the Responses API.
    expect(findModel("txtA-5.2-pro")?.protocol).toBe("openai-responses");
    expect(findModel("txtA-5.2-codex")?.protocol).toBe("openai-responses");
    expect(modelFamilyOf("txtC-unknown-9")).toBe("txtC");
  });

  it("lists the endpoints that accept each model", () => {
    expect(findModel("txtB-opus-4-8")?.endpoints).toEqual([
      "chat",
      "responses",
      "messages",
      "native",
    ]);
    expect(findModel("vidV3.1-lite")?.endpoints).toEqual(["videos"]);
    expect(findModel("vidV3.1-quality")?.endpoints).toEqual(["videos", "remix"]);
    expect(modelsForEndpoint("speech").map((m) => m.id)).toEqual(["txtA-4o-mini-tts"]);
    expect(modelsForEndpoint("transcriptions").map((m) => m.id)).toEqual(["asrW-1"]);
    expect(
      modelsForEndpoint("images")
        .map((m) => m.id)
        .sort(),
    ).toEqual(["txtA-image-2", "txtC-3-pro-image-preview"]);
  });
});
