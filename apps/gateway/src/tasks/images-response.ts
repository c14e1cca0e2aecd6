import { GatewayError } from "@interlingua/errors";
import { isTerminal, type TaskResult } from "@interlingua/tasks";
import type { GatewayServices } from "../services/gateway-services.ts";
import { upstreamHandle } from "../storage/task-record.ts";
import type { TaskRow } from "../storage/task-store.ts";

// OpenAI's synchronous `ImagesResponse` for an image task (issue 25): what the official SDKs'
// `images.generate` reads (`created`, `data[].url` or `data[].b64_json`). The task runs as any
// other; this waits for it, bounded, and renders its result files.

const POLL_MS = 100;

/** The task once it has finished, or as it stands when `waitMs` ran out. */
export async function waitForTask(
  services: GatewayServices,
  id: string,
  waitMs: number,
  signal?: AbortSignal,
): Promise<TaskRow | undefined> {
  const until = Date.now() + waitMs;
  for (;;) {
    const row = await services.store.tasks.get(id);
    if (row === undefined || isTerminal(row.status)) return row;
    if (Date.now() >= until || signal?.aborted === true) return row;
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, until - Date.now())));
  }
}

/** The file store key of one of the gateway's own file URLs (`…/files/<key>`). */
const keyOf = (url: string): string | undefined => {
  const at = url.lastIndexOf("/files/");
  return at < 0 ? undefined : decodeURIComponent(url.slice(at + "/files/".length));
};

async function base64Of(services: GatewayServices, url: string): Promise<string> {
  const key = keyOf(url);
  const stream = key === undefined ? undefined : await services.fileStore.get(key);
  if (stream === undefined) throw new Error(`result file ${url} is gone`);
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks).toString("base64");
}

/** A completed image task as OpenAI's ImagesResponse. */
export async function imagesResponse(
  services: GatewayServices,
  task: TaskRow,
  format: "url" | "b64_json",
): Promise<Record<string, unknown>> {
  const urls = ((task.result as TaskResult | undefined)?.images ?? []).flatMap((i) => i.url);
  const data =
    format === "url"
      ? urls.map((url) => ({ url }))
      : await Promise.all(urls.map(async (url) => ({ b64_json: await base64Of(services, url) })));
  const usage = upstreamHandle(task).imageUsage;
  return {
    created: Math.floor(task.createdAt / 1000),
    data,
    ...(usage === undefined ? {} : { usage }),
  };
}

const STATUS_BY_TYPE: Readonly<Record<string, 400 | 500 | 502>> = {
  invalid_request_error: 400,
  server_error: 500,
  bad_gateway: 502,
};

/** A failed or cancelled task as the error OpenAI's endpoint would have answered. */
export function taskFailure(task: TaskRow): GatewayError {
  const error = task.error;
  if (task.status === "cancelled" || error === undefined) {
    return new GatewayError({
      status: 500,
      type: "server_error",
      message: `task ${task.id} was ${task.status}`,
    });
  }
  return new GatewayError({
    status: STATUS_BY_TYPE[error.type] ?? 502,
    type: error.type,
    message: error.message,
    code: String(error.code),
  });
}
