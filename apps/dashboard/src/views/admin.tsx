import { useQuery } from "@tanstack/preact-query";
import { manage } from "../api.ts";

interface Route {
  model: string;
  upstream_model: string;
  breaker: string;
  failures: number;
  cooldown_until: number | null;
  cooldown_ms: number | null;
}

interface ChannelRow {
  name: string;
  protocol: string;
  priority: number;
  weight: number;
  breaker: string;
  calls: number;
  errors: number;
  error_rate: number;
  latency_p50_ms: number | null;
  latency_p95_ms: number | null;
  last_error_at: number | null;
  routes: Route[];
}

interface UserRow {
  id: string;
  quota: number;
  used_quota: number;
  reserved_quota: number;
  remain_quota: number;
  unlimited_quota: boolean;
  remain_balance: number;
  used_balance: number;
}

const n = (v: number) => v.toLocaleString("en-US");
const when = (s: number | null) =>
  s === null ? "-" : new Date(s * 1000).toISOString().replace("T", " ").slice(11, 19);

/** Admin keys only (config `admins`): channel health and every user's quota. */
export function AdminView() {
  const channels = useQuery({
    queryKey: ["admin-channels"],
    queryFn: () => manage<{ items: ChannelRow[] }>("/api/admin/channels"),
    refetchInterval: 5000,
  });
  const users = useQuery({
    queryKey: ["admin-users"],
    queryFn: () => manage<{ items: UserRow[]; unit: string }>("/api/admin/users"),
  });
  return (
    <>
      <section aria-labelledby="channels">
        <h2 id="channels">Channels</h2>
        {channels.error && <p role="alert">{channels.error.message}</p>}
        <div class="scroll">
          <table data-testid="channels">
            <thead>
              <tr>
                <th scope="col">Channel</th>
                <th scope="col">Protocol</th>
                <th scope="col">Breaker</th>
                <th scope="col">Error rate</th>
                <th scope="col">Latency p50 / p95</th>
                <th scope="col">Calls</th>
                <th scope="col">Cooling down</th>
              </tr>
            </thead>
            <tbody>
              {channels.data?.items.map((c) => (
                <tr key={c.name}>
                  <td>{c.name}</td>
                  <td>{c.protocol}</td>
                  <td class={`breaker ${c.breaker}`}>{c.breaker}</td>
                  <td>{c.calls === 0 ? "-" : `${(c.error_rate * 100).toFixed(1)} %`}</td>
                  <td>
                    {c.latency_p50_ms === null
                      ? "-"
                      : `${c.latency_p50_ms} / ${c.latency_p95_ms} ms`}
                  </td>
                  <td>{n(c.calls)}</td>
                  <td>
                    {c.routes
                      .filter((r) => r.cooldown_until !== null)
                      .map((r) => `${r.model} until ${when(r.cooldown_until)}`)
                      .join(", ") || "-"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section aria-labelledby="users">
        <h2 id="users">Users and quotas</h2>
        <div class="scroll">
          <table data-testid="users">
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Quota</th>
                <th scope="col">Used</th>
                <th scope="col">Reserved</th>
                <th scope="col">Left</th>
                <th scope="col">Balance ({users.data?.unit})</th>
              </tr>
            </thead>
            <tbody>
              {users.data?.items.map((u) => (
                <tr key={u.id}>
                  <td>{u.id}</td>
                  <td>{u.unlimited_quota ? "unlimited" : n(u.quota)}</td>
                  <td>{n(u.used_quota)}</td>
                  <td>{n(u.reserved_quota)}</td>
                  <td>{u.unlimited_quota ? "-" : n(u.remain_quota)}</td>
                  <td>{u.unlimited_quota ? "-" : u.remain_balance.toFixed(4)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
