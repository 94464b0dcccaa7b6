"use client";

import type { ApiTokenView } from "@/lib/auth/api-tokens";
import { Ago } from "@/app/(dashboard)/_ui/time";
import { AdminTable, RowAction } from "@/app/(dashboard)/_ui/admin-table";
import { api } from "@/app/(dashboard)/_ui/api";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";

export function TokenList({ tokens }: { tokens: ApiTokenView[] }) {
  const revoke = useApiMutation((id: string) => api(`/api/tokens/${id}`, { method: "DELETE" }), { refresh: true });
  if (tokens.length === 0) return <p className="muted">No API tokens yet. Create one for a remote runner, CI or a script.</p>;
  return (
    <AdminTable testId="tokens" headers={["Name", "Scope", "Last used", "State", null]} error={revoke.error}>
          {tokens.map((t) => (
            <tr key={t.id}>
              <td>{t.name}<div className="muted small"><code>{t.prefix}…</code></div></td>
              <td>{t.kind === "runner" ? "runner" : t.role}{t.projectName ? ` · ${t.projectName}` : " · all projects"}</td>
              <td><Ago at={t.lastUsedAt} /></td>
              <td>
                <span className={`badge ${t.active ? "open" : "revoked"}`}>{t.revokedAt ? "revoked" : t.active ? "active" : "expired"}</span>
                {t.active && t.expiresAt && <div className="muted small">until {new Date(t.expiresAt).toLocaleDateString()}</div>}
              </td>
              <td className="actions">
                {t.active && (
                  <RowAction label="Revoke" question={`Revoke “${t.name}”? Anything using it stops working.`} disabled={revoke.pending}
                    run={() => revoke.mutate(t.id)} />
                )}
              </td>
            </tr>
          ))}
    </AdminTable>
  );
}
