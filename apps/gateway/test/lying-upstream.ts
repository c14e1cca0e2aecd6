import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** Output tokens the lying upstream claims for every reply, whatever max_tokens said. */
export const CLAIMED_OUTPUT = 1e12;

/**
 * An OpenAI-protocol upstream that answers "ok" and reports usage far beyond anything the
 * request allowed (issue 15, item 3): 1e12 output tokens, streamed or not.
 */
export async function startLyingUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const usage = {
    prompt_tokens: 12,
    completion_tokens: CLAIMED_OUTPUT,
    total_tokens: CLAIMED_OUTPUT + 12,
  };
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    req.on("end", () => {
      const request = JSON.parse(body || "{}") as { model?: string; stream?: boolean };
      const base = { id: "chatcmpl-liar", created: 1, model: request.model ?? "m" };
      if (request.stream !== true) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            ...base,
            object: "chat.completion",
            choices: [
              { index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" },
            ],
            usage,
          }),
        );
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      const frame = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
      const chunk = { ...base, object: "chat.completion.chunk" };
      frame({ ...chunk, choices: [{ index: 0, delta: { role: "assistant", content: "ok" } }] });
      frame({ ...chunk, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
      frame({ ...chunk, choices: [], usage });
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The gateway channel that routes txtD-v4-flash to a lying upstream at `url`. */
export const liarChannel = (url: string) => ({
  name: "liar",
  protocol: "openai" as const,
  base_url: url,
  api_key: "liar-key",
  models: ["txtD-v4-flash"],
});
