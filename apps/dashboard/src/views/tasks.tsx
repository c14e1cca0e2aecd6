import { useMutation, useQuery, useQueryClient } from "@tanstack/preact-query";
import { useState } from "preact/hooks";
import { manage, type Page, v1 } from "../api.ts";
import { Pager } from "./pager.tsx";

interface Task {
  id: string;
  kind: string;
  model: string;
  status: string;
  progress: number;
  cost?: number;
  credits_cost?: number;
  created: number;
  completed?: number;
  result?: {
    images?: { url: string[] | string; expires_at?: number }[];
    videos?: { url?: string[] | string }[];
    audios?: { url?: string[] | string }[];
  };
  error?: { code: string | number; message: string; type: string };
  webhook: {
    url: string;
    status: string;
    attempts: number;
    last_status: number | null;
    last_error: string | null;
    next_attempt_at: number | null;
  } | null;
}

const LANGUAGES = ["en", "zh", "ja", "ko", "ru", "fr", "de", "id", "pt", "es"];
const FINISHED = new Set(["completed", "failed", "cancelled"]);
const urls = (value: string[] | string | undefined) =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
const when = (s: number | undefined | null) =>
  s === undefined || s === null
    ? "-"
    : new Date(s * 1000).toISOString().replace("T", " ").slice(0, 19);

/** The user's image and video tasks (`/api/task/self`), and a form to submit one. */
export function TasksView() {
  const client = useQueryClient();
  const [language, setLanguage] = useState("en");
  const [page, setPage] = useState(1);
  const [form, setForm] = useState({
    kind: "image",
    model: "txtA-image-2",
    prompt: "",
    webhook: "",
  });
  const tasks = useQuery({
    queryKey: ["tasks", page, language],
    queryFn: () => manage<Page<Task>>(`/api/task/self?p=${page}&page_size=20&language=${language}`),
    // Poll while something is still running.
    refetchInterval: (q) =>
      q.state.data?.items.some((t) => !FINISHED.has(t.status)) === true ? 1500 : false,
  });
  const submit = useMutation({
    mutationFn: () =>
      v1<unknown>(form.kind === "image" ? "/v1/images/generations" : "/v1/videos/generations", {
        method: "POST",
        body: JSON.stringify({
          model: form.model,
          prompt: form.prompt,
          ...(form.webhook === "" ? {} : { webhook: form.webhook }),
        }),
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["tasks"] }),
  });
  const pages = Math.max(1, Math.ceil((tasks.data?.total ?? 0) / 20));
  return (
    <>
      <section aria-labelledby="new-task">
        <h2 id="new-task">New task</h2>
        <form
          class="limits"
          onSubmit={(e) => {
            e.preventDefault();
            submit.mutate();
          }}
        >
          <label>
            Kind
            <select
              name="kind"
              value={form.kind}
              onChange={(e) => setForm({ ...form, kind: e.currentTarget.value })}
            >
              <option value="image">image</option>
              <option value="video">video</option>
            </select>
          </label>
          <label>
            Model
            <input
              name="model"
              value={form.model}
              required
              onInput={(e) => setForm({ ...form, model: e.currentTarget.value })}
            />
          </label>
          <label class="wide">
            Prompt
            <input
              name="prompt"
              value={form.prompt}
              required
              onInput={(e) => setForm({ ...form, prompt: e.currentTarget.value })}
            />
          </label>
          <label>
            Webhook (optional)
            <input
              name="webhook"
              type="url"
              value={form.webhook}
              onInput={(e) => setForm({ ...form, webhook: e.currentTarget.value })}
            />
          </label>
          <button type="submit" disabled={submit.isPending}>
            Submit
          </button>
        </form>
        {submit.error && (
          <p role="alert" class="error">
            {submit.error.message}
          </p>
        )}
      </section>
      <section aria-labelledby="task-list">
        <h2 id="task-list">Tasks</h2>
        <label>
          Error language{" "}
          <select value={language} onChange={(e) => setLanguage(e.currentTarget.value)}>
            {LANGUAGES.map((l) => (
              <option key={l}>{l}</option>
            ))}
          </select>
        </label>
        <ul class="tasks" data-testid="tasks">
          {tasks.data?.items.map((t) => (
            <li key={t.id} class={`task ${t.status}`} data-task-status={t.status}>
              <div class="task-head">
                <code>{t.id}</code> <span>{t.kind}</span> <span>{t.model}</span>
                <strong>{t.status}</strong>
              </div>
              <progress max={100} value={t.progress} aria-label={`progress of ${t.id}`} />
              <small>
                created {when(t.created)}
                {t.completed !== undefined ? `, finished ${when(t.completed)}` : ""}
                {t.credits_cost !== undefined ? `, ${t.credits_cost} credits` : ""}
              </small>
              {t.error && (
                <p class="error">
                  {t.error.type} ({t.error.code}): {t.error.message}
                </p>
              )}
              {t.result?.images?.flatMap((img) =>
                urls(img.url).map((url) => (
                  <a key={url} href={url} target="_blank" rel="noreferrer">
                    <img src={url} alt={`result of ${t.id}`} class="result" />
                  </a>
                )),
              )}
              {[...(t.result?.videos ?? []), ...(t.result?.audios ?? [])].flatMap((m) =>
                urls(m.url).map((url) => (
                  <a key={url} href={url} target="_blank" rel="noreferrer">
                    {url}
                  </a>
                )),
              )}
              {t.webhook && (
                <p class="webhook">
                  Webhook {t.webhook.url}: {t.webhook.status}, {t.webhook.attempts} attempt(s)
                  {t.webhook.last_status !== null ? `, last HTTP ${t.webhook.last_status}` : ""}
                  {t.webhook.last_error !== null ? `, ${t.webhook.last_error}` : ""}
                  {t.webhook.next_attempt_at !== null
                    ? `, next retry ${when(t.webhook.next_attempt_at)}`
                    : ""}
                </p>
              )}
            </li>
          ))}
        </ul>
        {tasks.data?.items.length === 0 && <p>No tasks yet.</p>}
        <Pager label="Task pages" page={page} pages={pages} setPage={setPage} />
      </section>
    </>
  );
}
