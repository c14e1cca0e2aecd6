import { useMutation, useQuery, useQueryClient } from "@tanstack/preact-query";
import { useState } from "preact/hooks";
import { manage, type Page, v1 } from "../api.ts";
import { Pager } from "./pager.tsx";

interface StoredResponse {
  id: string;
  status: string;
  model: string | null;
  previous_response_id: string | null;
  background: boolean;
  bytes: number;
  created_at: number;
  expires_at: number;
}

const when = (s: number) => new Date(s * 1000).toISOString().replace("T", " ").slice(0, 19);

/** Stored responses (`store: true`): the list, one response as JSON, delete. */
export function ResponsesView() {
  const client = useQueryClient();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ["responses", page],
    queryFn: () => manage<Page<StoredResponse>>(`/api/response/self?p=${page}&page_size=20`),
  });
  const detail = useQuery({
    queryKey: ["response", open],
    enabled: open !== null,
    queryFn: () => v1<unknown>(`/v1/responses/${encodeURIComponent(open ?? "")}`),
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      v1<unknown>(`/v1/responses/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: (_data, id) => {
      if (open === id) setOpen(null);
      client.invalidateQueries({ queryKey: ["responses"] });
    },
  });
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / 20));
  return (
    <section aria-labelledby="stored">
      <h2 id="stored">Stored responses</h2>
      {list.error && <p role="alert">{list.error.message}</p>}
      {remove.error && (
        <p role="alert" class="error">
          {remove.error.message}
        </p>
      )}
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Model</th>
              <th scope="col">Status</th>
              <th scope="col">Created (UTC)</th>
              <th scope="col">Expires</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.items.map((r) => (
              <tr key={r.id}>
                <td>
                  <code>{r.id}</code>
                </td>
                <td>{r.model ?? "-"}</td>
                <td>{r.status}</td>
                <td>{when(r.created_at)}</td>
                <td>{when(r.expires_at)}</td>
                <td class="actions">
                  <button type="button" onClick={() => setOpen(open === r.id ? null : r.id)}>
                    {open === r.id ? "Hide" : "View"}
                  </button>
                  <button
                    type="button"
                    class="danger"
                    onClick={() => {
                      if (confirm(`Delete response ${r.id}?`)) remove.mutate(r.id);
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
      {list.data?.items.length === 0 && <p>No stored responses.</p>}
      {open !== null && (
        <pre class="json" data-response={open}>
          {detail.isPending ? "…" : JSON.stringify(detail.data ?? detail.error?.message, null, 2)}
        </pre>
      )}
      <Pager label="Response pages" page={page} pages={pages} setPage={setPage} />
    </section>
  );
}
