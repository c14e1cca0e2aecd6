import type { MiddlewareHandler } from "hono";
import type { SimEnv } from "./env.ts";

/** The request body, read once for the handler, the id seed and the request log. */
export type RequestBody = {
  /** Raw text (JSON requests) or a summary of the form (multipart): seeds the ids. */
  seed: string;
  json: unknown;
  /** Set when the body was not valid JSON. */
  invalidJson: boolean;
  form: FormData | undefined;
};

const EMPTY: RequestBody = { seed: "", json: undefined, invalidJson: false, form: undefined };

async function readBody(request: Request): Promise<RequestBody> {
  if (request.method === "GET" || request.method === "HEAD" || request.method === "DELETE") {
    return EMPTY;
  }
  const type = request.headers.get("content-type") ?? "";
  if (type.startsWith("multipart/form-data")) {
    try {
      const form = await request.formData();
      return {
        seed: JSON.stringify(summarizeForm(form)),
        json: undefined,
        invalidJson: false,
        form,
      };
    } catch {
      return EMPTY; // the endpoint reports the missing form fields
    }
  }
  const text = await request.text();
  if (!text) return EMPTY;
  try {
    return { seed: text, json: JSON.parse(text), invalidJson: false, form: undefined };
  } catch {
    return { seed: text, json: undefined, invalidJson: true, form: undefined };
  }
}

/** Form fields as JSON, files reduced to their name, type and size. */
export function summarizeForm(form: FormData): Record<string, unknown> {
  const summary: Record<string, unknown> = {};
  for (const [name, value] of form) {
    const entry =
      typeof value === "string" ? value : { name: value.name, type: value.type, size: value.size };
    const previous = summary[name];
    if (previous === undefined) summary[name] = entry;
    else summary[name] = Array.isArray(previous) ? [...previous, entry] : [previous, entry];
  }
  return summary;
}

export const bodyReader: MiddlewareHandler<SimEnv> = async (c, next) => {
  c.set("body", await readBody(c.req.raw));
  await next();
};
