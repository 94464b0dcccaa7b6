"use client";

import type { ApiTokenView } from "@/lib/auth/api-tokens";
import { Ago } from "../../_ui/time";
import { useSend } from "./use-send";

export function TokenList({ tokens }: { tokens: ApiTokenView[] }) {
  const { send, error, pending } = useSend();
  if (tokens.length === 0) return <p className="muted">No API tokens yet. Create one for a remote runner, CI or a script.</p>;
  return (
    <div className="table-wrap">
      <table className="table" data-testid="tokens">
        <thead><tr><th scope="col">Name</th><th scope="col">Scope</th><th scope="col">Last used</th><th scope="col">State</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
        <tbody>
          {tokens.map((t) => (
            <tr key={t.id}>
              <td>{t.name}<div className="muted small"><code>{t.prefix}…</code></div></td>
              <td>{t.role}{t.projectName ? ` · ${t.projectName}` : " · all projects"}</td>
              <td><Ago at={t.lastUsedAt} /></td>
              <td>
                <span className={`badge ${t.active ? "open" : "revoked"}`}>{t.revokedAt ? "revoked" : t.active ? "active" : "expired"}</span>
                {t.active && t.expiresAt && <div className="muted small">until {new Date(t.expiresAt).toLocaleDateString()}</div>}
              </td>
              <td className="actions">
                {t.active && (
                  <button type="button" className="secondary small" disabled={pending}
                    onClick={() => confirm(`Revoke “${t.name}”? Anything using it stops working.`) && send(`/api/tokens/${t.id}`, { method: "DELETE" })}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error && <p className="error" role="alert">{error.message}</p>}
    </div>
  );
}
