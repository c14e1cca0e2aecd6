import { expect } from "vitest";
import type { ConfigInput } from "../src/config/config-schema.ts";
import type { GatewayOptions } from "../src/start-gateway.ts";
import { auth, eventuallyAsync, postJson, type Stack, startStack, UPSTREAM_KEY } from "./stack.ts";
import type { Json } from "./wire.ts";

// Shared by the tasks*.test.ts suites: a stack whose simulator channels also serve the video and
// image models, with polling shortened so a task completes in tens of milliseconds.

export const VIDEO_MODELS = [
  "vidV3.1-fast",
  "vidV3.1-quality",
  "vidV3.1-lite",
  "vidV3.1-fast-official",
  "vidV3.1-quality-official",
];

export const FAST_TASKS: NonNullable<GatewayOptions["tasks"]> = {
  minPollMs: 10,
  maxPollMs: 10,
  backoffMs: 10,
  sweepIntervalMs: 0,
};

export const mediaChannels = (url: string): NonNullable<ConfigInput["channels"]> => [
  {
    name: "ge-media",
    protocol: "gemini",
    base_url: url,
    api_key: UPSTREAM_KEY,
    models: [...VIDEO_MODELS, "txtC-3-pro-image-preview"],
  },
  {
    name: "oa-media",
    protocol: "openai",
    base_url: url,
    api_key: UPSTREAM_KEY,
    models: ["txtA-image-2"],
  },
];

export async function startTaskStack(
  overrides: Parameters<typeof startStack>[0] = {},
  options: GatewayOptions = {},
): Promise<Stack> {
  return startStack(
    { extraChannels: mediaChannels, ...overrides },
    { tasks: FAST_TASKS, ...options },
  );
}

export async function getJson(
  url: string,
  headers: Record<string, string> = auth(),
): Promise<{ status: number; json: Json; headers: Headers }> {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  let json: Json;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, json, headers: response.headers };
}

/** Polls GET /v1/tasks/{id} (bounded) until the task is terminal; returns its `data`. */
export function settled(stack: Stack, taskId: string, query = ""): Promise<Json> {
  return settledAt(stack.gateway.url, taskId, { query });
}

/** `settled` against any gateway's base URL (a second instance, a restarted one). */
export async function settledAt(
  base: string,
  taskId: string,
  { query = "", timeoutMs = 8000 }: { query?: string; timeoutMs?: number } = {},
): Promise<Json> {
  const read = await eventuallyAsync(
    () => getJson(`${base}/v1/tasks/${taskId}${query}`),
    (r) => r.status !== 200 || ["completed", "failed", "cancelled"].includes(r.json?.data?.status),
    timeoutMs,
  );
  expect(read.status).toBe(200);
  return read.json.data;
}

/** POSTs a task submit to a gateway; the acknowledged task id, checked to be the API reference's shape. */
export async function submitAt(base: string, path: string, body: unknown): Promise<string> {
  return ackId((await postJson(`${base}${path}`, body, auth())).json);
}

/** The task id of a submission acknowledgement, checked to be the API reference's shape. */
export function ackId(json: Json): string {
  expect(json).toEqual({ code: 200, data: [{ status: "submitted", task_id: expect.any(String) }] });
  return json.data[0].task_id;
}

export async function download(
  url: string,
): Promise<{ status: number; bytes: Buffer; type: string | null }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return {
    status: response.status,
    bytes: Buffer.from(await response.arrayBuffer()),
    type: response.headers.get("content-type"),
  };
}

export const isMp4 = (bytes: Buffer) => bytes.subarray(4, 8).toString("latin1") === "ftyp";
export const isPng = (bytes: Buffer) =>
  bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
