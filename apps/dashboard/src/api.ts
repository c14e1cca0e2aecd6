// The dashboard's only way to the gateway: the public API (`/api/*` management routes and the
// `/v1/*` endpoints), with the key the user signed in with, kept in session storage only.

const STORAGE_KEY = "interlingua.dashboard.key";

export const session = {
  get: (): string | null => sessionStorage.getItem(STORAGE_KEY),
  set: (key: string) => sessionStorage.setItem(STORAGE_KEY, key),
  clear: () => sessionStorage.removeItem(STORAGE_KEY),
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function call(path: string, init: RequestInit = {}, key = session.get()): Promise<unknown> {
  const headers = new Headers(init.headers);
  if (key !== null) headers.set("authorization", `Bearer ${key}`);
  if (init.body !== undefined) headers.set("content-type", "application/json");
  const response = await fetch(path, { ...init, headers });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const record = (body ?? {}) as { message?: string; error?: { message?: string } };
    throw new ApiError(
      response.status,
      record.error?.message ?? record.message ?? `HTTP ${response.status}`,
    );
  }
  return body;
}

/** A management route: `{success, message, data}`; `data` or an ApiError. */
export async function manage<T>(path: string, init?: RequestInit, key?: string): Promise<T> {
  const body = (await call(path, init, key)) as { success: boolean; message: string; data: T };
  if (!body.success) throw new ApiError(400, body.message);
  return body.data;
}

/** A `/v1/*` route in the spec envelope `{code, data}`: its `data`. */
export async function v1<T>(path: string, init?: RequestInit): Promise<T> {
  const body = (await call(path, init)) as { data?: T } | T;
  return body !== null && typeof body === "object" && "data" in body
    ? (body.data as T)
    : (body as T);
}

export interface Self {
  id: string;
  quota: number;
  used_quota: number;
  reserved_quota: number;
  remain_quota: number;
  unlimited_quota: boolean;
  remain_balance: number;
  used_balance: number;
  unit: string;
  role?: "admin" | "user";
}

export interface Token {
  id: number;
  name: string;
  key_hint: string;
  status: "active" | "disabled" | string;
  remain_quota: number;
  used_quota: number;
  unlimited_quota: boolean;
  expired_time: number;
  models: string[] | null;
  source: string;
  created_time: number;
  rate_limit: { rpm?: number; tpm?: number } | null;
  key?: string;
}

export interface LogRow {
  id: number;
  request_id: string;
  created_at: number;
  token_name: string;
  model_name: string;
  channel: string | null;
  endpoint: string;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  thinking_tokens: number;
  quota: number;
  cost: number;
  latency_ms: number;
  is_stream: boolean;
  status: number;
  error: string | null;
  estimated: boolean;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

export interface LogStat {
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  thinking_tokens: number;
  quota: number;
  cost: number;
  unit: string;
}

export interface LogFilters {
  model_name?: string;
  token_name?: string;
  start_timestamp?: number;
  end_timestamp?: number;
}

export const query = (params: Record<string, string | number | undefined>): string => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== "") search.set(name, String(value));
  }
  const text = search.toString();
  return text === "" ? "" : `?${text}`;
};

/** Every log row the filters match, page by page (at most `maxPages` pages of 100). */
export async function allLogs(filters: LogFilters, maxPages = 20): Promise<LogRow[]> {
  const rows: LogRow[] = [];
  for (let p = 1; p <= maxPages; p++) {
    const page = await manage<Page<LogRow>>(
      `/api/log/self${query({ ...filters, p, page_size: 100 })}`,
    );
    rows.push(...page.items);
    if (rows.length >= page.total || page.items.length === 0) break;
  }
  return rows;
}
