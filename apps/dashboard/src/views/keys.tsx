import { useMutation, useQuery, useQueryClient } from "@tanstack/preact-query";
import { useState } from "preact/hooks";
import { manage, type Page, type Token } from "../api.ts";
import { Pager } from "./pager.tsx";

interface Limits {
  name: string;
  quota: string;
  unlimited: boolean;
  models: string;
  expiry: string;
  rpm: string;
  tpm: string;
}

const EMPTY: Limits = {
  name: "",
  quota: "",
  unlimited: false,
  models: "",
  expiry: "",
  rpm: "",
  tpm: "",
};

const fromToken = (t: Token): Limits => ({
  name: t.name,
  quota: t.unlimited_quota ? "" : String(t.remain_quota),
  unlimited: t.unlimited_quota,
  models: (t.models ?? []).join(", "),
  expiry: t.expired_time === -1 ? "" : new Date(t.expired_time * 1000).toISOString().slice(0, 10),
  rpm: t.rate_limit?.rpm === undefined ? "" : String(t.rate_limit.rpm),
  tpm: t.rate_limit?.tpm === undefined ? "" : String(t.rate_limit.tpm),
});

/** The body of POST/PUT /api/token: the gateway refuses (403) whatever widens the caller's own. */
const toBody = (l: Limits) => {
  const models = l.models
    .split(",")
    .map((m) => m.trim())
    .filter((m) => m !== "");
  const rate = {
    ...(l.rpm === "" ? {} : { rpm: Number(l.rpm) }),
    ...(l.tpm === "" ? {} : { tpm: Number(l.tpm) }),
  };
  return {
    name: l.name,
    unlimited_quota: l.unlimited,
    ...(l.unlimited ? {} : { remain_quota: Number(l.quota === "" ? 0 : l.quota) }),
    models: models.length === 0 ? null : models,
    expired_time: l.expiry === "" ? -1 : Math.floor(Date.parse(`${l.expiry}T23:59:59Z`) / 1000),
    rate_limit: Object.keys(rate).length === 0 ? null : rate,
  };
};

/**
 * Only the fields the user changed: an untouched field is not sent, so editing one limit never
 * re-asserts another (for instance an expiry rounded to its day, or `models: null`, which a key
 * with an allow-list may not grant).
 */
const changed = (before: Limits, after: Limits) => {
  const old = toBody(before) as Record<string, unknown>;
  const now = toBody(after) as Record<string, unknown>;
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(now)) {
    if (JSON.stringify(old[name]) !== JSON.stringify(value)) body[name] = value;
  }
  if (before.unlimited !== after.unlimited || before.quota !== after.quota) {
    body["unlimited_quota"] = now["unlimited_quota"];
    if (!after.unlimited) body["remain_quota"] = now["remain_quota"];
  }
  return body;
};

function LimitsForm({
  initial,
  submitLabel,
  onSubmit,
  busy,
}: {
  initial: Limits;
  submitLabel: string;
  onSubmit: (limits: Limits) => void;
  busy: boolean;
}) {
  const [l, setL] = useState(initial);
  const text = (name: keyof Limits, label: string, type = "text") => (
    <label>
      {label}
      <input
        type={type}
        name={name}
        value={String(l[name])}
        min={type === "number" ? 0 : undefined}
        onInput={(e) => setL({ ...l, [name]: e.currentTarget.value })}
      />
    </label>
  );
  return (
    <form
      class="limits"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(l);
      }}
    >
      {text("name", "Name")}
      <label class="check">
        <input
          type="checkbox"
          name="unlimited"
          checked={l.unlimited}
          onChange={(e) => setL({ ...l, unlimited: e.currentTarget.checked })}
        />
        Unlimited
      </label>
      {!l.unlimited && text("quota", "Quota (credits)", "number")}
      {text("models", "Models (comma-separated, empty: all)")}
      {text("expiry", "Expires (UTC day, empty: never)", "date")}
      {text("rpm", "Requests / min", "number")}
      {text("tpm", "Tokens / min", "number")}
      <button type="submit" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  );
}

export function KeysView() {
  const client = useQueryClient();
  const [page, setPage] = useState(1);
  const [created, setCreated] = useState<Token | null>(null);
  const [editing, setEditing] = useState<number | null>(null);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ["tokens", page],
    queryFn: () => manage<Page<Token>>(`/api/token?p=${page}&page_size=20`),
  });
  const refresh = () => client.invalidateQueries({ queryKey: ["tokens"] });
  const fail = (e: Error) => setError(e.message);
  const create = useMutation({
    mutationFn: (l: Limits) =>
      manage<Token>("/api/token", { method: "POST", body: JSON.stringify(toBody(l)) }),
    onSuccess: (token) => {
      setError(null);
      setCopied(false);
      setCreated(token);
      refresh();
    },
    onError: fail,
  });
  const update = useMutation({
    mutationFn: ({ id, body }: { id: number; body: object }) =>
      manage<Token>(`/api/token/${id}`, { method: "PUT", body: JSON.stringify(body) }),
    onSuccess: () => {
      setError(null);
      setEditing(null);
      refresh();
    },
    onError: fail,
  });
  const remove = useMutation({
    mutationFn: (id: number) => manage<null>(`/api/token/${id}`, { method: "DELETE" }),
    onSuccess: () => {
      setError(null);
      refresh();
    },
    onError: fail,
  });
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / 20));
  return (
    <>
      <section aria-labelledby="new-key">
        <h2 id="new-key">New key</h2>
        <LimitsForm
          initial={EMPTY}
          submitLabel="Create key"
          busy={create.isPending}
          onSubmit={(l) => create.mutate(l)}
        />
        {created?.key !== undefined && (
          <div class="once" role="status">
            <p>
              Key <strong>{created.name}</strong> created. It is shown this once only:
            </p>
            <code data-testid="new-key">{created.key}</code>
            <button
              type="button"
              onClick={async () => {
                try {
                  await navigator.clipboard.writeText(created.key ?? "");
                  setCopied(true);
                } catch {
                  // No clipboard permission: select the key so that Ctrl+C copies it.
                  const code = document.querySelector('[data-testid="new-key"]');
                  if (code !== null) getSelection()?.selectAllChildren(code);
                }
              }}
            >
              {copied ? "Copied" : "Copy"}
            </button>
            <button type="button" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        )}
      </section>
      {error !== null && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <section aria-labelledby="key-list">
        <h2 id="key-list">Keys</h2>
        <div class="scroll">
          <table data-testid="keys">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Status</th>
                <th scope="col">Quota left</th>
                <th scope="col">Used</th>
                <th scope="col">Models</th>
                <th scope="col">Expires</th>
                <th scope="col">Rate</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.data?.items.map((t) => (
                <tr key={t.id} data-key-name={t.name} data-status={t.status}>
                  <td>{t.name}</td>
                  <td>
                    <code>{t.key_hint}</code>
                  </td>
                  <td>{t.status}</td>
                  <td>
                    {t.unlimited_quota ? "unlimited" : t.remain_quota.toLocaleString("en-US")}
                  </td>
                  <td>{t.used_quota.toLocaleString("en-US")}</td>
                  <td>{t.models === null ? "all" : t.models.join(", ")}</td>
                  <td>
                    {t.expired_time === -1
                      ? "never"
                      : new Date(t.expired_time * 1000).toISOString().slice(0, 10)}
                  </td>
                  <td>
                    {t.rate_limit === null
                      ? "-"
                      : `${t.rate_limit.rpm ?? "-"} rpm, ${t.rate_limit.tpm ?? "-"} tpm`}
                  </td>
                  <td class="actions">
                    <button
                      type="button"
                      onClick={() => setEditing(editing === t.id ? null : t.id)}
                      aria-expanded={editing === t.id}
                    >
                      Limits
                    </button>
                    <button
                      type="button"
                      onClick={() =>
                        update.mutate({
                          id: t.id,
                          body: { status: t.status === "active" ? "disabled" : "active" },
                        })
                      }
                    >
                      {t.status === "active" ? "Disable" : "Enable"}
                    </button>
                    <button
                      type="button"
                      class="danger"
                      onClick={() => {
                        if (confirm(`Delete key ${t.name}? Calls with it are refused at once.`))
                          remove.mutate(t.id);
                      }}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {editing !== null &&
          list.data?.items
            .filter((t) => t.id === editing)
            .map((t) => (
              <div key={t.id} class="edit">
                <h3>Limits of {t.name}</h3>
                <LimitsForm
                  initial={fromToken(t)}
                  submitLabel="Save limits"
                  busy={update.isPending}
                  onSubmit={(l) => update.mutate({ id: t.id, body: changed(fromToken(t), l) })}
                />
              </div>
            ))}
        <Pager label="Key pages" page={page} pages={pages} setPage={setPage} />
      </section>
    </>
  );
}
