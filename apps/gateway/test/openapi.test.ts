import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COUNT_ROUTES, GENERATION_ROUTES } from "../src/contract/endpoints.ts";
import { createApp } from "../src/http/create-app.ts";
import { openApiPath } from "../src/http/openapi/openapi-document.ts";
import { type Stack, startStack } from "./stack.ts";
import type { Json } from "./wire.ts";

const METHODS = new Set(["get", "post", "put", "delete", "patch", "head", "options"]);

/** "METHOD /path" of every operation in the document. */
const documented = (doc: Json): string[] =>
  Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((method) => METHODS.has(method))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );

// docs/api-reference.md's endpoints (and DESIGN.md §4's operational ones): each must be in the document.
const SPEC_ENDPOINTS = [
  "POST /v1/chat/completions",
  "POST /api/v1/chat/completions",
  "POST /v1/responses",
  "POST /v1/messages",
  "POST /v1beta/models/{target}",
  "GET /v1/balance",
  "GET /balance",
  "GET /v1/user/balance",
  "GET /user/balance",
  "GET /v1/tasks/{task_id}",
  "GET /v1/images/generations/{task_id}",
  "POST /v1/videos/generations",
  "POST /v1/videos/{task_id}/remix",
  "POST /v1/images/generations",
  "POST /v1/uploads/images",
  "POST /v1/audio/speech",
  "POST /v1/audio/transcriptions",
  "GET /files/{key}",
  "GET /api/user/self",
  "GET /api/log/self",
  "GET /api/log/self/stat",
  "GET /api/token",
  "POST /api/token",
  "PUT /api/token/{id}",
  "DELETE /api/token/{id}",
  "GET /api/webhook/secret",
  "POST /api/webhook/secret/rotate",
  "GET /healthz",
  "GET /readyz",
  "GET /metrics",
  "GET /openapi.json",
  "GET /docs",
];

describe("OpenAPI document", () => {
  let stack: Stack;
  let doc: Json;
  beforeAll(async () => {
    stack = await startStack({ metrics: { enabled: true } });
    const res = await fetch(`${stack.gateway.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    doc = await res.json();
  });
  afterAll(async () => {
    await stack.close();
  });

  it("is OpenAPI 3.1 and documents every route served, and no other", () => {
    expect(doc.openapi).toBe("3.1.0");
    const app = createApp(stack.gateway.services);
    // The front door's generation routes, and the app's.
    const registered = new Set([
      ...[...GENERATION_ROUTES, ...COUNT_ROUTES].map(({ path }) => `POST ${openApiPath(path)}`),
      ...app.routes
        .filter((route) => route.method !== "ALL")
        .map((route) => `${route.method} ${openApiPath(route.path)}`),
    ]);
    expect(registered.size).toBeGreaterThan(30);
    const inDoc = new Set(documented(doc));
    expect(
      [...registered].filter((r) => !inDoc.has(r)),
      "registered, not documented",
    ).toEqual([]);
    expect(
      [...inDoc].filter((r) => !registered.has(r)),
      "documented, not registered",
    ).toEqual([]);
  });

  it("validates against the OpenAPI 3.1 schema", async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("covers every docs/api-reference.md endpoint", () => {
    const inDoc = new Set(documented(doc));
    expect(SPEC_ENDPOINTS.filter((e) => !inDoc.has(e))).toEqual([]);
  });

  it("declares every path parameter, a 200 reply and a unique operation id", () => {
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const op of Object.values(item)) {
        const declared = (op.parameters ?? [])
          .filter((p: Json) => p.in === "path")
          .map((p: Json) => p.name);
        expect(declared, path).toEqual(names);
        expect(op.responses["200"], path).toBeDefined();
        expect(ids.has(op.operationId), op.operationId).toBe(false);
        ids.add(op.operationId);
      }
    }
  });

  it("takes request bodies from the zod schemas", () => {
    const chat = doc.paths["/v1/chat/completions"].post;
    const schema = chat.requestBody.content["application/json"].schema;
    expect(schema.required).toEqual(expect.arrayContaining(["model", "messages"]));
    expect(chat.responses["200"].content["text/event-stream"]).toBeDefined();
    const create = doc.paths["/api/token"].post.requestBody.content["application/json"].schema;
    expect(Object.keys(create.properties)).toEqual(
      expect.arrayContaining(["name", "remain_quota", "unlimited_quota"]),
    );
    const upload = doc.paths["/v1/uploads/images"].post.requestBody.content;
    expect(upload["multipart/form-data"].schema.required).toEqual(["file"]);
    const logs = doc.paths["/api/log/self"].get.parameters.map((p: Json) => p.name);
    expect(logs).toEqual(expect.arrayContaining(["p", "page_size", "model_name"]));
  });

  it("serves a self-contained reference page that loads the document", async () => {
    const res = await fetch(`${stack.gateway.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain('fetch("openapi.json")');
    // No CDN: nothing is loaded from elsewhere.
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href="https?:/);
  });
});
