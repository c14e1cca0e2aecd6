import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, postJson, type Stack, startStack, UPSTREAM_KEY } from "./stack.ts";
import { type ClientFormat, type Json, parseSse, REQUEST, WRAPPED } from "./wire.ts";

// Replies name the model the client asked for, whatever id the channel calls the upstream with
// (Claude Code keeps its signed thinking only for the model it asked for): every client format,
// on its own family's upstream (the byte-for-byte fast path) and across families, stream and not.
// The upstream's id is in `x-interlingua-upstream-model`.

const CLIENTS: ClientFormat[] = ["chat", "responses", "messages", "native"];
/** Gateway ids the channels below call by another name. */
const UPSTREAMS = [
  { family: "openai", model: "txtA-5-mini", upstream: "oa-upstream-name" },
  { family: "anthropic", model: "txtB-opus-4-8", upstream: "claude-upstream-name" },
  { family: "gemini", model: "txtC-2.5-flash", upstream: "gemini-upstream-name" },
] as const;

/** Every model name a reply states: top-level model fields, in every frame of a stream. */
function statedModels(client: ClientFormat, text: string, stream: boolean): string[] {
  const key = client === "native" ? "modelVersion" : "model";
  const bodies: Json[] = stream
    ? parseSse(text)
        .filter((f) => f.data !== "[DONE]")
        .map((f) => JSON.parse(f.data))
    : [JSON.parse(text)];
  const names: string[] = [];
  for (const body of bodies) {
    const inner = WRAPPED[client] && !stream ? body.data : body;
    for (const holder of [inner, inner?.message, inner?.response]) {
      if (typeof holder?.[key] === "string") names.push(holder[key]);
    }
  }
  return names;
}

/** Each provider's own service tiers: another provider's value is never copied in. */
const TIERS: Record<string, readonly (string | null)[]> = {
  chat: ["auto", "default", "flex", "scale", "priority"],
  messages: ["standard", "priority", "batch", null],
};

/** Fields the official schemas require or restrict, on a non-stream reply (issue: schema deviations). */
function checkSchemaFields(client: ClientFormat, family: string, json: Json): void {
  const body = WRAPPED[client] ? json.data : json;
  if (client === "chat") {
    if (body.service_tier !== undefined) expect(TIERS["chat"]).toContain(body.service_tier);
    for (const choice of body.choices) {
      expect(choice).toHaveProperty("logprobs");
      expect(choice.message).toHaveProperty("refusal");
    }
  }
  if (client === "messages") expect(TIERS["messages"]).toContain(body.usage.service_tier);
  if (client === "native" && family !== "gemini") {
    expect(body.usageMetadata.serviceTier).toBeUndefined();
  }
}

describe("replies name the client's model", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      extraChannels: (url) => [
        {
          name: "oa-alias",
          protocol: "openai",
          base_url: url,
          api_key: UPSTREAM_KEY,
          models: { "txtA-5-mini": "oa-upstream-name" },
        },
        {
          name: "ge-alias",
          protocol: "gemini",
          base_url: url,
          api_key: UPSTREAM_KEY,
          models: { "txtC-2.5-flash": "gemini-upstream-name" },
        },
      ],
    });
  });
  afterAll(() => stack.close());

  for (const client of CLIENTS) {
    for (const upstream of UPSTREAMS) {
      for (const stream of [false, true]) {
        it(`${client} client, ${upstream.family} upstream, ${stream ? "stream" : "non-stream"}`, async () => {
          const { path, body } = REQUEST[client]({ model: upstream.model, text: "hi", stream });
          const res = await postJson(stack.gateway.url + path, body, auth());
          expect(res.status, res.text).toBe(200);
          const names = statedModels(client, res.text, stream);
          expect(names.length).toBeGreaterThan(0);
          expect(new Set(names)).toEqual(new Set([upstream.model]));
          expect(res.headers.get("x-interlingua-upstream-model")).toBe(upstream.upstream);
          if (!stream) checkSchemaFields(client, upstream.family, res.json);
        });
      }
    }
  }
});
