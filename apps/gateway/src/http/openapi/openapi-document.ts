import { z } from "zod";
import { API_ROUTES, type ApiRoute, type Auth, metricsRoute } from "./api-routes.ts";

// OpenAPI 3.1 from the route table: zod 4's own JSON Schema output (draft 2020-12, the dialect
// 3.1 uses) for bodies, parameters and replies. Built once per app, served as it is.

type Json = Record<string, unknown>;

/** Hono's `:param` as OpenAPI's `{param}`. */
export const openApiPath = (path: string): string => path.replace(/:([A-Za-z_]\w*)/g, "{$1}");

/** A request body's schema as clients send it (defaults optional, transforms seen as input). */
const schemaOf = (schema: z.core.$ZodType, io: "input" | "output"): Json => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  }) as Json;
  return rest;
};

const SECURITY: Record<Auth, Json[]> = {
  bearer: [{ bearer: [] }],
  messages: [{ bearer: [] }, { apiKey: [] }],
  native: [{ bearer: [] }, { googApiKey: [] }, { vendorApiKey: [] }, { queryKey: [] }],
  any: [{ bearer: [] }, { apiKey: [] }, { googApiKey: [] }, { vendorApiKey: [] }, { queryKey: [] }],
  none: [],
};

function parameters(route: ApiRoute): Json[] {
  const path = [...route.path.matchAll(/:([A-Za-z_]\w*)/g)].map((match) => ({
    name: match[1],
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  const shape = route.query?.shape ?? {};
  const query = Object.entries(shape).map(([name, field]) => ({
    name,
    in: "query",
    required: !z.safeParse(field as z.core.$ZodType, undefined).success,
    schema: schemaOf(field as z.core.$ZodType, "input"),
  }));
  return [...path, ...query];
}

function success(route: ApiRoute): Json {
  const reply = route.response;
  if (reply === undefined) return { description: "OK" };
  if (reply === "binary") {
    return {
      description: "OK",
      content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
    };
  }
  if (reply === "text" || reply === "html") {
    const type = reply === "text" ? "text/plain" : "text/html";
    return { description: "OK", content: { [type]: { schema: { type: "string" } } } };
  }
  const content: Json = { "application/json": { schema: schemaOf(reply, "output") } };
  if (route.sse === true) {
    content["text/event-stream"] = { schema: { type: "string", description: "SSE frames" } };
  }
  return { description: "OK", content };
}

function operation(route: ApiRoute): Json {
  const op: Json = {
    tags: [route.tag],
    summary: route.summary,
    operationId: `${route.method}${openApiPath(route.path).replace(/[^A-Za-z0-9]+/g, "_")}`,
    security: SECURITY[route.auth],
    responses: {
      "200": success(route),
      ...(route.errors === undefined
        ? {}
        : {
            default: {
              description: "Error, in the endpoint's envelope",
              content: { "application/json": { schema: schemaOf(route.errors, "output") } },
            },
          }),
    },
  };
  if (route.description !== undefined) op["description"] = route.description;
  const params = parameters(route);
  if (params.length > 0) op["parameters"] = params;
  if (route.body !== undefined) {
    const type = route.multipart === true ? "multipart/form-data" : "application/json";
    op["requestBody"] = {
      required: true,
      content: { [type]: { schema: schemaOf(route.body, "input") } },
    };
  }
  return op;
}

/** The routes of this gateway: the fixed table, plus `/metrics` when it is served. */
export function apiRoutes(metricsPath: string | undefined): readonly ApiRoute[] {
  return metricsPath === undefined ? API_ROUTES : [...API_ROUTES, metricsRoute(metricsPath)];
}

export function openApiDocument(routes: readonly ApiRoute[]): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method]: operation(route) };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Interlingua gateway",
      version: "1",
      description:
        "One API key, four generation formats, tasks, files, audio, balances and the management API (docs/api-reference.md).",
    },
    servers: [{ url: "/" }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer" },
        apiKey: { type: "apiKey", in: "header", name: "x-api-key" },
        googApiKey: { type: "apiKey", in: "header", name: "x-goog-api-key" },
        vendorApiKey: { type: "apiKey", in: "header", name: "x-vendor-api-key" },
        queryKey: { type: "apiKey", in: "query", name: "key" },
      },
    },
  };
}
