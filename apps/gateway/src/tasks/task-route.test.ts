import type { UpstreamProtocol } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { toChannel } from "../routing/channel.ts";
import type { RouteCandidate } from "../routing/model-router.ts";
import { JOB_KINDS } from "../storage/task-record.ts";
import { PROTOCOLS } from "../upstream/protocols.ts";
import { jobFor } from "./task-route.ts";

const candidate = (protocol: UpstreamProtocol): RouteCandidate => ({
  channel: toChannel({
    name: protocol,
    protocol,
    base_url: "http://127.0.0.1:1/",
    api_key: "k",
    models: ["m"],
    priority: 0,
    weight: 1,
    caching: true,
    max_connections: 8,
    queue_timeout_ms: 1_000,
  }),
  upstreamModel: "m",
});

describe("task jobs by protocol", () => {
  it("finds each task kind's job from the protocol's declaration, not its name", () => {
    const jobs = Object.fromEntries(
      Object.keys(PROTOCOLS).map((p) => {
        const c = candidate(p as UpstreamProtocol);
        return [p, { video: jobFor(c, "video"), image: jobFor(c, "image") }];
      }),
    );
    expect(jobs).toEqual({
      openai: { video: undefined, image: "openai-images" },
      anthropic: { video: undefined, image: undefined },
      gemini: { video: "veo", image: "gemini-images" },
      "openai-responses": { video: undefined, image: undefined },
    });
  });

  it("has a job for every name a protocol declares, and every job is declared", () => {
    const declared = Object.values(PROTOCOLS).flatMap((p) => Object.values(p.media?.tasks ?? {}));
    expect([...new Set(declared)].sort()).toEqual([...JOB_KINDS].sort());
  });
});
