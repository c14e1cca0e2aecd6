import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, KEY, postJson, type Stack, startStack, UPSTREAM_KEY } from "./stack.ts";
import { png } from "./uploads-images.ts";
import type { Json } from "./wire.ts";

// Issue 25: files in Responses (`input_file`) and chat (`file` parts) reach every upstream:
// inline data as given; a file_url fetched by the gateway (the image URL rules: here loopback is
// allowed by `webhooks.allow_private_targets`); a file_id naming one of the caller's gateway
// files read from the file store. Anthropic gets a `document`, Gemini `inlineData`, OpenAI chat
// a `file`, the Responses API an `input_file`.

const PDF = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n", "latin1");
const TEXT = "The meeting is on Tuesday.";
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0, 0]);

const UPSTREAMS = [
  { protocol: "anthropic", model: "txtB-sonnet-4-6", path: /\/v1\/messages$/ },
  { protocol: "gemini", model: "txtC-2.5-pro", path: /:generateContent/ },
  { protocol: "openai chat", model: "txtA-5", path: /\/v1\/chat\/completions$/ },
  { protocol: "openai-responses", model: "txtA-5.2-pro", path: /\/v1\/responses$/ },
] as const;

/** Where the PDF (base64) shows up in each upstream's body. */
const pdfIn = (protocol: string, body: Json): unknown => {
  const text = JSON.stringify(body);
  return text.includes(PDF.toString("base64")) ? protocol : undefined;
};

describe("input files on every upstream", () => {
  let stack: Stack;
  let files: Server;
  let filesUrl = "";
  let client: OpenAI;
  beforeAll(async () => {
    files = createServer((req, res) => {
      const body =
        req.url === "/doc.pdf" ? PDF : req.url === "/notes.txt" ? Buffer.from(TEXT) : ZIP;
      res.writeHead(200, { "content-type": "application/octet-stream" }).end(body);
    });
    await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    stack = await startStack({
      webhooks: { allow_private_targets: true },
      extraChannels: (url) => [
        {
          name: "or",
          protocol: "openai-responses",
          base_url: url,
          api_key: UPSTREAM_KEY,
          models: ["txtA-5.2-pro"],
        },
      ],
    });
    client = new OpenAI({
      apiKey: KEY,
      baseURL: `${stack.gateway.url}/v1`,
      defaultHeaders: { "x-interlingua-envelope": "bare" },
      maxRetries: 0,
      timeout: 10_000,
    });
  });
  afterAll(async () => {
    await stack.close();
    await new Promise((resolve) => files.close(resolve));
  });

  const lastUpstream = (path: RegExp): Json =>
    stack.sim.requests.filter((r) => path.test(r.path)).at(-1)?.body as Json;

  for (const { protocol, model, path } of UPSTREAMS) {
    it(`input_file by file_data and by file_url reach ${protocol} inline`, async () => {
      for (const file of [
        { file_data: `data:application/pdf;base64,${PDF.toString("base64")}`, filename: "a.pdf" },
        { file_url: `${filesUrl}/doc.pdf` },
      ]) {
        const rsp = await client.responses.create({
          model,
          input: [
            {
              role: "user",
              content: [
                { type: "input_text", text: "summarise" },
                { type: "input_file", ...file },
              ],
            },
          ],
        });
        expect(rsp.status).toBe("completed");
        expect(pdfIn(protocol, lastUpstream(path))).toBe(protocol);
      }
      const body = lastUpstream(path);
      if (protocol === "anthropic") {
        const blocks = (body.messages as Json[])[0].content as Json[];
        expect(blocks.find((b) => b.type === "document")?.source).toMatchObject({
          type: "base64",
          media_type: "application/pdf",
        });
      }
      if (protocol === "gemini") {
        const parts = (body.contents as Json[])[0].parts as Json[];
        expect(parts.find((p) => p.inlineData)?.inlineData.mimeType).toBe("application/pdf");
      }
      if (protocol === "openai chat") {
        const blocks = (body.messages as Json[]).at(-1).content as Json[];
        expect(blocks.find((b) => b.type === "file")?.file.file_data).toMatch(
          /^data:application\/pdf;base64,/,
        );
      }
      if (protocol === "openai-responses") {
        const blocks = (body.input as Json[]).at(-1).content as Json[];
        expect(blocks.find((b) => b.type === "input_file")?.file_data).toMatch(
          /^data:application\/pdf;base64,/,
        );
      }
    });
  }

  it("a plain-text file_url is a text document for Anthropic", async () => {
    await client.responses.create({
      model: "txtB-sonnet-4-6",
      input: [
        { role: "user", content: [{ type: "input_file", file_url: `${filesUrl}/notes.txt` }] },
      ],
    });
    const blocks = (lastUpstream(/\/v1\/messages$/).messages as Json[])[0].content as Json[];
    expect(blocks.find((b) => b.type === "document")?.source).toEqual({
      type: "text",
      media_type: "text/plain",
      data: TEXT,
    });
  });

  it("a plain-text file goes to OpenAI chat as its text (chat files are PDF only)", async () => {
    await client.responses.create({
      model: "txtA-5",
      input: [
        { role: "user", content: [{ type: "input_file", file_url: `${filesUrl}/notes.txt` }] },
      ],
    });
    const blocks = (lastUpstream(/\/v1\/chat\/completions$/).messages as Json[]).at(-1)
      .content as Json[];
    expect(blocks).toContainEqual({ type: "text", text: TEXT });
    expect(blocks.some((b) => b.type === "file")).toBe(false);
  });

  it("a file_id naming the caller's own upload is read from the file store (responses and chat)", async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(png())], { type: "image/png" }), "dot.png");
    const upload = await fetch(`${stack.gateway.url}/v1/uploads/images`, {
      method: "POST",
      headers: auth(),
      body: form,
    });
    const key = ((await upload.json()) as Json).url.split("/files/")[1] as string;
    await client.responses.create({
      model: "txtC-2.5-pro",
      input: [{ role: "user", content: [{ type: "input_file", file_id: key }] }],
    });
    const parts = (lastUpstream(/:generateContent/).contents as Json[])[0].parts as Json[];
    expect(parts.find((p) => p.inlineData)?.inlineData).toEqual({
      mimeType: "image/png",
      data: png().toString("base64"),
    });
    // A chat client's file part, translated for Anthropic.
    const chat = await postJson(`${stack.gateway.url}/v1/chat/completions`, {
      model: "txtB-sonnet-4-6",
      messages: [{ role: "user", content: [{ type: "file", file: { file_id: key } }] }],
    });
    expect(chat.status, chat.text).toBe(200);
    const blocks = (lastUpstream(/\/v1\/messages$/).messages as Json[])[0].content as Json[];
    expect(blocks.find((b) => b.type === "image")?.source.data).toBe(png().toString("base64"));
  });

  it("what cannot be read is a clear 400 naming the part, and nothing is sent", async () => {
    const before = stack.sim.requests.length;
    for (const [file, message] of [
      [{ file_url: `${filesUrl}/archive.zip` }, /only PDF, plain-text and image files/],
      [{ file_url: "ftp://example.com/x.pdf" }, /file URL refused/],
      [{ file_id: "AbCdEfGhIjKlMnOpQrStUvWxYz012345.pdf" }, /does not exist/],
    ] as const) {
      const error = await client.responses
        .create({
          model: "txtB-sonnet-4-6",
          input: [{ role: "user", content: [{ type: "input_file", ...file }] }],
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toContain("messages[0].parts[0]");
    }
    expect(stack.sim.requests.length).toBe(before);
  });
});
