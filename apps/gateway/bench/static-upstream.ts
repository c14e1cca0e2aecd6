import { createServer, type IncomingMessage } from "node:http";
import { createProviderSimApp } from "@interlingua/provider-sim";
import { listenLocal } from "./listen-local.ts";

/**
 * An upstream that costs next to nothing: the simulator's replies to a few canned requests,
 * captured once at start, answered as precomputed bytes. Against it a CPU-per-call ratio is the
 * gateway's own (the simulator spends more per call than a pass-through proxy does).
 *
 * It speaks OpenAI chat (JSON; SSE with the usage chunk when `include_usage` is asked), Anthropic
 * messages (JSON, SSE) and Gemini generateContent / streamGenerateContent, whatever the model
 * asked for. A stream goes out one frame per write, as the simulator and real providers send it.
 */
export async function startStaticUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const replies = await captureReplies();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const reply = replies[replyKey(req, Buffer.concat(chunks))];
      if (reply === undefined) {
        res.writeHead(404, { "content-type": "application/json" }).end('{"error":"static"}');
        return;
      }
      if (reply.frames === undefined) {
        res.writeHead(200, { "content-type": reply.type, "content-length": reply.body.length });
        res.end(reply.body);
        return;
      }
      res.writeHead(200, { "content-type": reply.type, "cache-control": "no-cache" });
      const last = reply.frames.length - 1;
      for (let i = 0; i < last; i++) res.write(reply.frames[i]);
      res.end(reply.frames[last]);
    });
  });
  return listenLocal(server);
}

interface Reply {
  type: string;
  body: Buffer;
  /** The body cut into its SSE frames, for a stream. */
  frames?: Buffer[];
}

type Key = "chat" | "chat-s" | "chat-su" | "messages" | "messages-s" | "gemini" | "gemini-s";

const STREAM = Buffer.from('"stream":true');
const USAGE = Buffer.from('"include_usage":true');

/** Which canned reply a request gets: by path, and for a stream by a byte search of its body. */
function replyKey(req: IncomingMessage, body: Buffer): Key | "none" {
  const path = req.url ?? "";
  if (path.endsWith("/chat/completions")) {
    if (!body.includes(STREAM)) return "chat";
    return body.includes(USAGE) ? "chat-su" : "chat-s";
  }
  if (path.endsWith("/messages")) return body.includes(STREAM) ? "messages-s" : "messages";
  if (path.includes(":streamGenerateContent")) return "gemini-s";
  if (path.includes(":generateContent")) return "gemini";
  return "none";
}

const PROMPT = "Summarise the benefits of a gateway. [[len:60]]";
const OPENAI = { authorization: "Bearer sim-key" };
const ANTHROPIC = { "x-api-key": "sim-key", "anthropic-version": "2023-06-01" };
const GEMINI = { "x-goog-api-key": "sim-key" };
const chat = (extra: object) => ({
  model: "txtA-5",
  messages: [{ role: "user", content: PROMPT }],
  ...extra,
});
const messages = (extra: object) => ({
  model: "txtB-sonnet-4-6",
  max_tokens: 256,
  messages: [{ role: "user", content: PROMPT }],
  ...extra,
});
const gemini = { contents: [{ role: "user", parts: [{ text: PROMPT }] }] };
const GEMINI_PATH = "/v1beta/models/txtC-3.5-flash";

const CANNED: Record<Key, [path: string, headers: Record<string, string>, body: object]> = {
  chat: ["/v1/chat/completions", OPENAI, chat({})],
  "chat-s": ["/v1/chat/completions", OPENAI, chat({ stream: true })],
  "chat-su": [
    "/v1/chat/completions",
    OPENAI,
    chat({ stream: true, stream_options: { include_usage: true } }),
  ],
  messages: ["/v1/messages", ANTHROPIC, messages({})],
  "messages-s": ["/v1/messages", ANTHROPIC, messages({ stream: true })],
  gemini: [`${GEMINI_PATH}:generateContent`, GEMINI, gemini],
  "gemini-s": [`${GEMINI_PATH}:streamGenerateContent?alt=sse`, GEMINI, gemini],
};

/** Asks the simulator (in process, no socket) each canned request once. */
async function captureReplies(): Promise<Record<string, Reply>> {
  const app = createProviderSimApp({ record: false });
  const replies: Record<string, Reply> = {};
  for (const [key, [path, headers, body]] of Object.entries(CANNED)) {
    const res = await app.fetch(
      new Request(`http://sim${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      }),
    );
    const bytes = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`static upstream: ${key} answered ${res.status}`);
    const type = res.headers.get("content-type") ?? "application/json";
    replies[key] = type.startsWith("text/event-stream")
      ? { type, body: bytes, frames: sseFrames(bytes) }
      : { type, body: bytes };
  }
  return replies;
}

/** A stream's bytes cut after each blank line (each frame with its terminator). */
function sseFrames(bytes: Buffer): Buffer[] {
  const frames: Buffer[] = [];
  let from = 0;
  for (let at = bytes.indexOf("\n\n"); at !== -1; at = bytes.indexOf("\n\n", from)) {
    frames.push(bytes.subarray(from, at + 2));
    from = at + 2;
  }
  if (from < bytes.length) frames.push(bytes.subarray(from));
  return frames;
}
