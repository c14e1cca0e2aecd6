import { useQuery } from "@tanstack/preact-query";
import { useMemo, useState } from "preact/hooks";
import {
  allLogs,
  type LogFilters,
  type LogRow,
  type LogStat,
  manage,
  type Page,
  query,
  type Self,
} from "../api.ts";
import { DayChart } from "./chart.tsx";
import { Pager } from "./pager.tsx";

const DAY = 86_400;
const COLORS = ["#1d4ed8", "#b45309", "#047857", "#7c3aed", "#be123c", "#0e7490"];
const number = (n: number) => n.toLocaleString("en-US");
const when = (seconds: number) =>
  new Date(seconds * 1000).toISOString().replace("T", " ").slice(0, 19);

/** One (UTC day, model) group of `/api/log/self/daily`. */
export interface DayRow {
  day: number;
  model_name: string;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  quota: number;
}

/** Credits and tokens per day and per model (series for the charts, totals for the table). */
export function aggregate(rows: readonly DayRow[], window?: { from: number; to: number }) {
  // Every day of the window (or of the rows' span), those without usage at zero.
  const seen = rows.map((r) => r.day);
  const from = window?.from ?? Math.min(...seen);
  const to = window?.to ?? Math.max(...seen);
  const days: number[] = [];
  if (rows.length > 0) for (let d = from; d <= to && days.length < 400; d += DAY) days.push(d);
  const models = [...new Set(rows.map((r) => r.model_name))].sort();
  const index = new Map(days.map((d, i) => [d, i]));
  const credits = models.map(() => days.map(() => 0));
  const tokens = models.map(() => days.map(() => 0));
  const byModel = new Map<string, { requests: number; credits: number; tokens: number }>();
  for (const row of rows) {
    const m = models.indexOf(row.model_name);
    const d = index.get(row.day);
    const t = row.prompt_tokens + row.completion_tokens;
    if (d !== undefined) {
      credits[m]![d]! += row.quota;
      tokens[m]![d]! += t;
    }
    const entry = byModel.get(row.model_name) ?? { requests: 0, credits: 0, tokens: 0 };
    entry.requests += row.requests;
    entry.credits += row.quota;
    entry.tokens += t;
    byModel.set(row.model_name, entry);
  }
  return { days, models, credits, tokens, byModel };
}

const CSV_COLUMNS: (keyof LogRow)[] = [
  "created_at",
  "request_id",
  "token_name",
  "model_name",
  "endpoint",
  "status",
  "prompt_tokens",
  "completion_tokens",
  "cached_tokens",
  "thinking_tokens",
  "quota",
  "cost",
  "latency_ms",
  "is_stream",
  "estimated",
  "error",
];

export function toCsv(rows: readonly LogRow[]): string {
  const cell = (value: unknown) => {
    const text = value === null || value === undefined ? "" : String(value);
    return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return [CSV_COLUMNS.join(","), ...rows.map((r) => CSV_COLUMNS.map((c) => cell(r[c])).join(","))]
    .join("\r\n")
    .concat("\r\n");
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const toSeconds = (date: string, end: boolean) =>
  date === ""
    ? undefined
    : Math.floor(Date.parse(`${date}T00:00:00Z`) / 1000) + (end ? DAY - 1 : 0);

export function UsageView({ self }: { self: Self | undefined }) {
  const [draft, setDraft] = useState({ model: "", key: "", from: "", to: "", status: "" });
  const [filters, setFilters] = useState(draft);
  const [page, setPage] = useState(1);
  const logFilters: LogFilters & { status?: string } = {
    ...(filters.model === "" ? {} : { model_name: filters.model }),
    ...(filters.key === "" ? {} : { token_name: filters.key }),
    ...(filters.from === "" ? {} : { start_timestamp: toSeconds(filters.from, false)! }),
    ...(filters.to === "" ? {} : { end_timestamp: toSeconds(filters.to, true)! }),
    ...(filters.status === "" ? {} : { status: filters.status }),
  };
  const stat = useQuery({
    queryKey: ["stat", logFilters],
    queryFn: () => manage<LogStat>(`/api/log/self/stat${query({ ...logFilters })}`),
  });
  const log = useQuery({
    queryKey: ["log", logFilters, page],
    queryFn: () =>
      manage<Page<LogRow>>(`/api/log/self${query({ ...logFilters, p: page, page_size: 20 })}`),
  });
  const today = Math.floor(Date.now() / 1000 / DAY) * DAY;
  const chartFrom = logFilters.start_timestamp ?? today - 29 * DAY;
  const recent = useQuery({
    queryKey: ["chart", logFilters],
    queryFn: () =>
      manage<{ items: DayRow[] }>(
        `/api/log/self/daily${query({
          ...logFilters,
          start_timestamp: chartFrom,
        })}`,
      ),
  });
  const chartTo = Math.min(logFilters.end_timestamp ?? today, today);
  const agg = useMemo(
    () =>
      aggregate(recent.data?.items ?? [], {
        from: Math.floor(chartFrom / DAY) * DAY,
        to: Math.floor(chartTo / DAY) * DAY,
      }),
    [recent.data, chartFrom, chartTo],
  );
  const creditSeries = useMemo(
    () => agg.models.map((m, i) => ({ label: m, values: agg.credits[i]!, color: COLORS[i % 6]! })),
    [agg],
  );
  const tokenSeries = useMemo(
    () => agg.models.map((m, i) => ({ label: m, values: agg.tokens[i]!, color: COLORS[i % 6]! })),
    [agg],
  );
  const pages = Math.max(1, Math.ceil((log.data?.total ?? 0) / 20));
  const apply = (event: Event) => {
    event.preventDefault();
    setFilters(draft);
    setPage(1);
  };
  const field = (name: keyof typeof draft) => ({
    value: draft[name],
    onInput: (e: { currentTarget: HTMLInputElement | HTMLSelectElement }) =>
      setDraft({ ...draft, [name]: e.currentTarget.value }),
  });
  return (
    <>
      <section aria-labelledby="totals" class="cards">
        <h2 id="totals" class="sr-only">
          Totals
        </h2>
        <div class="card">
          <span>Balance</span>
          <strong data-testid="balance">
            {self === undefined
              ? "…"
              : self.unlimited_quota
                ? "unlimited"
                : `${self.remain_balance.toFixed(4)} ${self.unit}`}
          </strong>
          <small>{self === undefined ? "" : `${number(self.remain_quota)} credits left`}</small>
        </div>
        <div class="card">
          <span>Requests</span>
          <strong data-testid="requests">{stat.data ? number(stat.data.requests) : "…"}</strong>
        </div>
        <div class="card">
          <span>Tokens in / out</span>
          <strong>
            {stat.data
              ? `${number(stat.data.prompt_tokens)} / ${number(stat.data.completion_tokens)}`
              : "…"}
          </strong>
        </div>
        <div class="card">
          <span>Spent</span>
          <strong>{stat.data ? `${stat.data.cost.toFixed(4)} ${stat.data.unit}` : "…"}</strong>
          <small>{stat.data ? `${number(stat.data.quota)} credits` : ""}</small>
        </div>
      </section>

      <section aria-labelledby="charts">
        <h2 id="charts">By day and model (the last 30 days, or the chosen ones)</h2>
        {agg.days.length === 0 ? (
          <p>No usage yet.</p>
        ) : (
          <div class="charts">
            <DayChart title="Credits per day" days={agg.days} series={creditSeries} />
            <DayChart title="Tokens per day" days={agg.days} series={tokenSeries} />
          </div>
        )}
        <div class="scroll">
          <table data-testid="by-model">
            <caption class="sr-only">Usage by model</caption>
            <thead>
              <tr>
                <th scope="col">Model</th>
                <th scope="col">Requests</th>
                <th scope="col">Tokens</th>
                <th scope="col">Credits</th>
              </tr>
            </thead>
            <tbody>
              {[...agg.byModel].map(([model, v]) => (
                <tr key={model}>
                  <td>{model}</td>
                  <td>{number(v.requests)}</td>
                  <td>{number(v.tokens)}</td>
                  <td>{number(v.credits)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="log">
        <h2 id="log">Usage log</h2>
        <form class="filters" onSubmit={apply}>
          <label>
            Model
            <input {...field("model")} name="model" />
          </label>
          <label>
            Key name
            <input {...field("key")} name="key" />
          </label>
          <label>
            From
            <input {...field("from")} type="date" name="from" />
          </label>
          <label>
            To
            <input {...field("to")} type="date" name="to" />
          </label>
          <label>
            Status
            <select {...field("status")} name="status">
              <option value="">any</option>
              <option value="ok">succeeded</option>
              <option value="error">failed</option>
            </select>
          </label>
          <button type="submit">Filter</button>
          <button
            type="button"
            onClick={async () => download("usage.csv", toCsv(await allLogs(logFilters)))}
          >
            Export CSV
          </button>
        </form>
        {log.error && <p role="alert">{log.error.message}</p>}
        <div class="scroll">
          <table data-testid="log">
            <thead>
              <tr>
                <th scope="col">Time (UTC)</th>
                <th scope="col">Key</th>
                <th scope="col">Model</th>
                <th scope="col">Endpoint</th>
                <th scope="col">Status</th>
                <th scope="col">Tokens in/out</th>
                <th scope="col">Credits</th>
                <th scope="col">Latency</th>
              </tr>
            </thead>
            <tbody>
              {log.data?.items.map((row) => (
                <tr key={row.id} class={row.status >= 400 ? "failed" : undefined}>
                  <td>{when(row.created_at)}</td>
                  <td>{row.token_name}</td>
                  <td>{row.model_name}</td>
                  <td>{row.endpoint}</td>
                  <td title={row.error ?? undefined}>{row.status}</td>
                  <td>
                    {row.prompt_tokens}/{row.completion_tokens}
                    {row.estimated ? " (est.)" : ""}
                  </td>
                  <td>{number(row.quota)}</td>
                  <td>{row.latency_ms} ms</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Pager
          label="Log pages"
          page={page}
          pages={pages}
          setPage={setPage}
          note={`(${log.data?.total ?? 0} rows)`}
        />
      </section>
    </>
  );
}
