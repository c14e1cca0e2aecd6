import {
  type FileSource,
  type ImageSource,
  type Message,
  type Part,
  type Request,
  stripCacheControl,
} from "@interlingua/core-types";
import type { CachedAnalysis } from "./cache-analysis.js";
import { canonicalJson } from "./canonical-json.js";
import { base64Digest } from "./media-digest.js";
import { sha256Hex } from "./sha256.js";

export interface CacheKeyInput {
  /** The API user (account) the cache belongs to: two users never share a cache (rule 4). */
  user: string;
  /** The channel (upstream account) that holds the cache. */
  channel: string;
  /** The upstream model id the cache is created for. */
  model: string;
  request: Request;
  analysis: CachedAnalysis;
}

/** Bumped whenever the serialisation changes, so old registry entries stop matching. */
const keyVersion = 1;

/** Inline bytes are represented by their digest: the key text stays small and bytes count once. */
function digestSource<S extends ImageSource | FileSource>(source: S): unknown {
  if (source.type !== "base64") return source;
  return { type: "base64", mediaType: source.mediaType, sha256: base64Digest(source.data) };
}

function digestPart(part: Part): unknown {
  switch (part.type) {
    case "image":
    case "file":
      return { ...part, source: digestSource(part.source) };
    case "tool-result":
      return {
        ...part,
        content: part.content.map((block) =>
          block.type === "image" ? { ...block, source: digestSource(block.source) } : block,
        ),
      };
    default:
      return part;
  }
}

const digestMessage = (message: Message) => ({
  ...message,
  parts: (message.parts as Part[]).map(digestPart),
});

/**
 * A stable hex SHA-256 naming one upstream cache: user, channel, upstream model, ttl, the system
 * text, the tool definitions and choice (Gemini caches toolConfig with them) and the prefix
 * messages in order. Boundary markers themselves and everything after the boundary (live
 * messages, sampling, stream flag, ...) are not part of it.
 */
export function cacheKey(input: CacheKeyInput): string {
  const { request, analysis } = input;
  const stripped = stripCacheControl(request);
  return sha256Hex(
    canonicalJson({
      v: keyVersion,
      user: input.user,
      channel: input.channel,
      model: input.model,
      ttl: analysis.ttl,
      system: stripped.system,
      tools: stripped.tools,
      toolChoice: stripped.toolChoice,
      prefix: stripped.messages.slice(0, analysis.prefixMessages).map(digestMessage),
    }),
  );
}
