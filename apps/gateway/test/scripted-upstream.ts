import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { type Stack, startStack } from "./stack.ts";
import type { Json } from "./wire.ts";

/** The upstream protocols a scripted upstream answers, by the path a request arrives on. */
export type UpstreamProtocol = "openai" | "openai-responses" | "anthropic" | "gemini";

export interface ScriptedRequest {
  protocol: UpstreamProtocol;
  path: string;
  headers: IncomingMessage["headers"];
  body: Json;
  /** The body as sent, for what JSON.parse would change (exact numbers). */
  text: string;
  stream: boolean;
}

export interface ScriptedReply {
  status?: number;
  contentType?: string;
  body: string;
}

export type Script = (request: ScriptedRequest) => ScriptedReply;

const protocolOf = (path: string): UpstreamProtocol =>
  path.startsWith("/v1/chat/") || path.startsWith("/v1/audio/")
    ? "openai"
    : path.startsWith("/v1/responses")
      ? "openai-responses"
      : path.startsWith("/v1/messages")
        ? "anthropic"
        : "gemini";

/**
 * An upstream of all four protocols at one address whose every reply a test writes: bodies no
 * simulator would send (cut streams, exact numbers, unknown parts), as real providers can.
 */
export interface ScriptedUpstream {
  url: string;
  requests: ScriptedRequest[];
  script(script: Script): void;
  close(): Promise<void>;
}

export async function startScriptedUpstream(): Promise<ScriptedUpstream> {
  let current: Script = () => ({ status: 500, body: "{}" });
  const requests: ScriptedRequest[] = [];
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
    });
    req.on("end", () => {
      const path = req.url ?? "/";
      const body = text === "" ? {} : JSON.parse(text);
      const protocol = protocolOf(path);
      const stream =
        protocol === "gemini" ? path.includes(":streamGenerateContent") : body.stream === true;
      const request = { protocol, path, headers: req.headers, body, text, stream };
      requests.push(request);
      const reply = current(request);
      res.writeHead(reply.status ?? 200, {
        "content-type": reply.contentType ?? (stream ? "text/event-stream" : "application/json"),
      });
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(script) {
      current = script;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The channels' key: no run of it spells a number or a word the tests send. */
export const SCRIPTED_KEY = "sk-proj-Qw7Lp2Xv9Rt4Kd3HmZ8";

/** One model per upstream protocol, each on its own channel at the scripted upstream. */
export const SCRIPTED_MODEL: Record<UpstreamProtocol, string> = {
  openai: "txtA-5",
  "openai-responses": "txtA-5.2-pro",
  anthropic: "txtB-sonnet-4-6",
  gemini: "txtC-2.5-pro",
};

export const scriptedChannels = (url: string) =>
  (Object.keys(SCRIPTED_MODEL) as UpstreamProtocol[]).map((protocol) => ({
    name: `s-${protocol}`,
    protocol,
    base_url: url,
    api_key: SCRIPTED_KEY,
    models:
      protocol === "openai" ? [SCRIPTED_MODEL[protocol], SPEECH_MODEL] : [SCRIPTED_MODEL[protocol]],
  }));

/** The speech model, on the scripted OpenAI channel. */
export const SPEECH_MODEL = "txtA-4o-mini-tts";

/** SSE frames as a body: `data:` lines, with `event:` where a protocol names its events. */
export const sse = (frames: readonly Json[], named = false): string =>
  frames
    .map((frame) =>
      typeof frame === "string"
        ? `data: ${frame}\n\n`
        : `${named ? `event: ${frame.type}\n` : ""}data: ${JSON.stringify(frame)}\n\n`,
    )
    .join("");

/**
 * A gateway whose channels all point at one scripted upstream, for one test file: started before
 * its tests and closed after them. Read `upstream` and `stack` inside the tests.
 */
export function useScriptedStack(): { readonly upstream: ScriptedUpstream; readonly stack: Stack } {
  const held = {} as { upstream: ScriptedUpstream; stack: Stack };
  beforeAll(async () => {
    held.upstream = await startScriptedUpstream();
    held.stack = await startStack({ channels: scriptedChannels(held.upstream.url) });
  });
  afterAll(async () => {
    await held.stack?.close();
    await held.upstream?.close();
  });
  return held;
}
