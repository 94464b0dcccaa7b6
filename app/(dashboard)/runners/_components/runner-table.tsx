"use client";

import type { RunnerRow } from "@/lib/runners/list";
import { Ago } from "@/app/(dashboard)/_ui/time";
import { AdminTable, RowAction } from "@/app/(dashboard)/_ui/admin-table";
import { api } from "@/app/(dashboard)/_ui/api";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { OfferForm } from "@/app/(dashboard)/runners/_components/offer-form";

export function RunnerTable({ runners, waiting, canOffer, canRevoke }: { runners: RunnerRow[]; waiting: { id: string; label: string }[]; canOffer: boolean; canRevoke: boolean }) {
  const revoke = useApiMutation((id: string) => api(`/api/tokens/${id}`, { method: "DELETE" }), { refresh: true });
  if (runners.length === 0) return <p className="muted">No runner has registered yet. Start one with a runner token (see the README: “Run agents on another machine”).</p>;
  return (
    <AdminTable testId="runners" headers={["Runner", "Status", "Running", "Last heard from", null]} error={revoke.error}>
      {runners.map((r) => (
        <tr key={r.id}>
          <td>
            {r.name}
            <div className="muted small">{r.role} · up to {r.maxConcurrent} at once{r.capabilities.length ? ` · ${r.capabilities.join(", ")}` : ""}</div>
          </td>
          <td>
            <span className={`badge ${r.online ? "open" : "revoked"}`}>{r.online ? (r.runs.length ? "busy" : "online") : "offline"}</span>
            {r.token && !r.token.active && <div className="muted small">token revoked</div>}
          </td>
          <td>{r.runs.length ? r.runs.map((run) => <div key={run.id}><a href={`/runs/${run.id}`}>{run.label}</a></div>) : <span className="muted">nothing</span>}</td>
          <td><Ago at={r.lastSeenAt} /></td>
          <td className="actions">
            {canOffer && r.online && r.role === "worker" && <OfferForm runnerId={r.id} waiting={waiting} />}
            {canRevoke && r.token?.active && (
              <RowAction label="Revoke token" question={`Revoke the token “${r.token.name}”? Every runner using it stops getting work.`} disabled={revoke.pending}
                run={() => revoke.mutate(r.token!.id)} />
            )}
          </td>
        </tr>
      ))}
    </AdminTable>
  );
}
